import type { Command } from '../../domain/commands/command';
import type { CommandRepository } from '../../domain/ports';

const copy = (command: Command): Command => ({ ...command });

export class MemoryCommandRepository implements CommandRepository {
  private readonly commands = new Map<string, Command>();

  public async insert(command: Command): Promise<void> {
    if (this.commands.has(command.id)) throw new Error(`duplicate command ${command.id}`);
    this.commands.set(command.id, copy(command));
  }

  public async replace(command: Command): Promise<boolean> {
    if (!this.commands.has(command.id)) return false;
    this.commands.set(command.id, copy(command));
    return true;
  }

  public async findById(id: string): Promise<Command | undefined> {
    const command = this.commands.get(id);
    return command ? copy(command) : undefined;
  }

  public async listByTeam(teamId: string, creatorId?: string): Promise<Command[]> {
    return [...this.commands.values()]
      .filter((c) => c.teamId === teamId && c.deleteAt === 0 && (creatorId === undefined || c.creatorId === creatorId))
      .sort((a, b) => a.createAt - b.createAt || (a.id < b.id ? -1 : 1))
      .map(copy);
  }
}
