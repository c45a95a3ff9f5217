import { applyMembershipChange, type ThreadMembership, type ThreadMembershipChange, type ThreadMembershipKey, type ThreadMembershipRepository } from '../../domain/threads/thread-ports';
import { copy } from './memory-utils';

const keyOf = (postId: string, userId: string): string => `${postId}:${userId}`;

export class MemoryThreadMembershipRepository implements ThreadMembershipRepository {
  private readonly byKey = new Map<string, ThreadMembership>();

  public async find(postId: string, userId: string): Promise<ThreadMembership | undefined> {
    const found = this.byKey.get(keyOf(postId, userId));
    return found ? copy(found) : undefined;
  }

  public async maintain(key: ThreadMembershipKey, change: ThreadMembershipChange): Promise<ThreadMembership> {
    const id = keyOf(key.post_id, key.user_id);
    const next = applyMembershipChange(this.byKey.get(id), key, change);
    this.byKey.set(id, copy(next));
    return copy(next);
  }

  public async listFollowing(userId: string, teamIds: readonly string[]): Promise<ThreadMembership[]> {
    return [...this.byKey.values()].filter((m) => m.user_id === userId && m.following && teamIds.includes(m.team_id)).map(copy);
  }

  public async listFollowers(postId: string): Promise<ThreadMembership[]> {
    return [...this.byKey.values()].filter((m) => m.post_id === postId && m.following).map(copy);
  }

  public async markAllRead(userId: string, teamIds: readonly string[], at: number): Promise<number> {
    let n = 0;
    for (const [id, m] of this.byKey) {
      if (m.user_id !== userId || !teamIds.includes(m.team_id)) continue;
      this.byKey.set(id, { ...m, last_viewed: at, last_updated: at, unread_mentions: 0 });
      n += 1;
    }
    return n;
  }
}
