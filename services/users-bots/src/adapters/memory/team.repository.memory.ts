import type { Team } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { TeamRepository } from '../../domain/ports';
import { copy } from './memory-utils';

export class MemoryTeamRepository implements TeamRepository {
  private readonly byId = new Map<string, Team>();
  private readonly idByName = new Map<string, string>();

  public async insert(team: Team): Promise<void> {
    if (this.byId.has(team.id)) throw new DuplicateKeyError('id');
    if (this.idByName.has(team.name)) throw new DuplicateKeyError('name');
    this.byId.set(team.id, copy(team));
    this.idByName.set(team.name, team.id);
  }

  public async findById(id: string): Promise<Team | undefined> {
    const team = this.byId.get(id);
    return team ? copy(team) : undefined;
  }

  public async findByName(name: string): Promise<Team | undefined> {
    const id = this.idByName.get(name);
    return id === undefined ? undefined : this.findById(id);
  }

  public async findByIds(ids: readonly string[]): Promise<Team[]> {
    return ids.flatMap((id) => {
      const team = this.byId.get(id);
      return team ? [copy(team)] : [];
    });
  }
}
