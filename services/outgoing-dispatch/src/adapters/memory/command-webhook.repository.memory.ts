import type { CommandWebhook } from '../../domain/commands/command';
import type { CommandWebhookRepository } from '../../domain/ports';

export class MemoryCommandWebhookRepository implements CommandWebhookRepository {
  private readonly hooks = new Map<string, CommandWebhook>();

  public async insert(hook: CommandWebhook): Promise<void> {
    if (this.hooks.has(hook.idHash)) throw new Error('duplicate command webhook');
    this.hooks.set(hook.idHash, { ...hook });
  }

  public async findByHash(idHash: string): Promise<CommandWebhook | undefined> {
    const hook = this.hooks.get(idHash);
    return hook ? { ...hook } : undefined;
  }

  public async tryUse(idHash: string, maxUses: number, createdSince: number): Promise<CommandWebhook | undefined> {
    const hook = this.hooks.get(idHash);
    if (!hook || hook.useCount >= maxUses || hook.createAt < createdSince) return undefined;
    const used = { ...hook, useCount: hook.useCount + 1 };
    this.hooks.set(idHash, used);
    return { ...used };
  }

  public async deleteCreatedBefore(before: number): Promise<number> {
    let removed = 0;
    for (const [key, hook] of this.hooks) {
      if (hook.createAt < before) {
        this.hooks.delete(key);
        removed += 1;
      }
    }
    return removed;
  }
}
