import type { PresenceStore } from '../../domain/ports';

/** Users online per replica, shared by the replicas of one process (the embedded runtime has one). */
export class MemoryPresenceBoard {
  public readonly replicas = new Map<string, Set<string>>();
  /** Replicas that have not closed (whether or not they have users). */
  public readonly members = new Set<string>();

  public replica(replicaId: string): MemoryPresence {
    return new MemoryPresence(this, replicaId);
  }
}

/** One replica's side of a MemoryPresenceBoard. */
export class MemoryPresence implements PresenceStore {
  public constructor(public readonly board: MemoryPresenceBoard = new MemoryPresenceBoard(), private readonly replicaId = 'local') {
    board.members.add(replicaId);
  }

  public set(userId: string, online: boolean): void {
    let users = this.board.replicas.get(this.replicaId);
    if (!users) {
      users = new Set();
      this.board.replicas.set(this.replicaId, users);
    }
    if (online) users.add(userId);
    else users.delete(userId);
  }

  public async onlineAmong(userIds: readonly string[]): Promise<ReadonlySet<string>> {
    const online = new Set<string>();
    for (const id of userIds) for (const users of this.board.replicas.values()) if (users.has(id)) online.add(id);
    return online;
  }

  public async onlineUsers(): Promise<readonly string[]> {
    const all = new Set<string>();
    for (const users of this.board.replicas.values()) for (const id of users) all.add(id);
    return [...all];
  }

  public async close(): Promise<void> {
    this.board.replicas.delete(this.replicaId);
    this.board.members.delete(this.replicaId);
  }

  public leads(): boolean {
    let first: string | undefined;
    for (const id of this.board.members) if (first === undefined || id < first) first = id;
    return first === undefined || first === this.replicaId;
  }
}
