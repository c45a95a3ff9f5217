/**
 * A user's membership of a thread (the reference's ThreadMemberships row), keyed by (post_id, user_id):
 * whether they follow it, when they last viewed it and their unread mentions in it. `channel_id` and
 * `team_id` (`""` for direct and group channels) are the root's, copied in so a user's threads of a team
 * are listed without reading the posts first.
 */
export interface ThreadMembership {
  /** The thread's root post id. */
  readonly post_id: string;
  readonly user_id: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly following: boolean;
  /** ms; replies created after it are unread. */
  readonly last_viewed: number;
  /** ms of the membership's last change (the list's `since`). */
  readonly last_updated: number;
  readonly unread_mentions: number;
}

/** Which membership, and where its thread lives (used only when the membership is created). */
export interface ThreadMembershipKey {
  readonly post_id: string;
  readonly user_id: string;
  readonly channel_id: string;
  readonly team_id: string;
}

/** What one maintain call changes; absent fields keep their value (new memberships: false / 0). */
export interface ThreadMembershipChange {
  readonly following?: boolean;
  readonly last_viewed?: number;
  /** Sets the count (wins over add_mentions). */
  readonly unread_mentions?: number;
  /** Adds to the count (a new mention). */
  readonly add_mentions?: number;
  readonly last_updated: number;
}

/**
 * Thread memberships. Adapters: memory, SQLite, MongoDB, under one contract suite
 * (adapters/contracts/thread-membership-repository.contract.ts).
 */
export interface ThreadMembershipRepository {
  find(postId: string, userId: string): Promise<ThreadMembership | undefined>;
  /**
   * Creates the membership (following false, last_viewed 0, unread_mentions 0 unless the change sets
   * them) or changes the existing one, as one atomic write (two concurrent mentions both count); returns
   * it as stored afterwards.
   */
  maintain(key: ThreadMembershipKey, change: ThreadMembershipChange): Promise<ThreadMembership>;
  /** The threads the user follows in these teams (`""`: direct and group channels), in no particular order. */
  listFollowing(userId: string, teamIds: readonly string[]): Promise<ThreadMembership[]>;
  /** The users following the thread, in no particular order. */
  listFollowers(postId: string): Promise<ThreadMembership[]>;
  /** Every membership of the user in these teams: last_viewed and last_updated = at, no unread mentions. Returns how many. */
  markAllRead(userId: string, teamIds: readonly string[], at: number): Promise<number>;
}

/** A membership as `maintain` leaves it (the one rule every adapter applies). */
export function applyMembershipChange(current: ThreadMembership | undefined, key: ThreadMembershipKey, change: ThreadMembershipChange): ThreadMembership {
  const base: ThreadMembership = current ?? { ...key, following: false, last_viewed: 0, last_updated: 0, unread_mentions: 0 };
  return {
    ...base,
    following: change.following ?? base.following,
    last_viewed: change.last_viewed ?? base.last_viewed,
    unread_mentions: change.unread_mentions ?? base.unread_mentions + (change.add_mentions ?? 0),
    last_updated: change.last_updated,
  };
}
