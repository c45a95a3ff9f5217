import type { StoredStatus } from '../../domain/statuses/status';
import type { StatusStore } from '../../domain/statuses/status-store';

/** Statuses of one process (the embedded runtime): kept until it stops, as the connections are. */
export class MemoryStatusStore implements StatusStore {
  private readonly byUser = new Map<string, StoredStatus>();

  public async get(userIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    const out = new Map<string, StoredStatus>();
    for (const id of userIds) {
      const status = this.byUser.get(id);
      if (status) out.set(id, { ...status });
    }
    return out;
  }

  public async put(status: StoredStatus): Promise<void> {
    this.byUser.set(status.userId, { ...status });
  }
}
