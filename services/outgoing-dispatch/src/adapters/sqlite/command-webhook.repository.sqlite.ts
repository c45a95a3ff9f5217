import { fromDoc, uniqueViolation, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { CommandWebhook } from '../../domain/commands/command';
import type { CommandWebhookRepository } from '../../domain/ports';

/** `use_count` is a column so that a use is one guarded UPDATE; the doc keeps the rest. */
export class SqliteCommandWebhookRepository implements CommandWebhookRepository {
  private readonly insertRow;
  private readonly byHash;
  private readonly use;
  private readonly deleteOld;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO od_command_webhooks (id_hash, create_at, use_count, doc) VALUES (?, ?, ?, ?)');
    this.byHash = db.prepare<[string], DocRow & { use_count: number }>('SELECT doc, use_count FROM od_command_webhooks WHERE id_hash = ?');
    this.use = db.prepare<[string, number, number], DocRow & { use_count: number }>(
      'UPDATE od_command_webhooks SET use_count = use_count + 1 WHERE id_hash = ? AND use_count < ? AND create_at >= ? RETURNING doc, use_count',
    );
    this.deleteOld = db.prepare('DELETE FROM od_command_webhooks WHERE create_at < ?');
  }

  public async insert(hook: CommandWebhook): Promise<void> {
    await this.store.write(() => {
      try {
        this.insertRow.run(hook.idHash, hook.createAt, hook.useCount, JSON.stringify(hook));
      } catch (error) {
        throw uniqueViolation(error) === undefined ? error : new Error('duplicate command webhook');
      }
    });
  }

  public async findByHash(idHash: string): Promise<CommandWebhook | undefined> {
    return withCount(this.byHash.get(idHash));
  }

  public async tryUse(idHash: string, maxUses: number, createdSince: number): Promise<CommandWebhook | undefined> {
    return this.store.write(() => withCount(this.use.get(idHash, maxUses, createdSince)));
  }

  public async deleteCreatedBefore(before: number): Promise<number> {
    return this.store.write(() => this.deleteOld.run(before).changes);
  }
}

function withCount(row: (DocRow & { use_count: number }) | undefined): CommandWebhook | undefined {
  const hook = fromDoc<CommandWebhook>(row);
  return hook && row ? { ...hook, useCount: row.use_count } : undefined;
}
