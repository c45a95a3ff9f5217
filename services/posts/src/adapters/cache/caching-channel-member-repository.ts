import type { ChannelMember } from '../../domain/entities';
import type { CachedChannelMembers, ChannelMemberRepository, MemberViewChanges, MentionTargets, Page } from '../../domain/ports';

/** How long a membership read through `cachedMember` is reused when no change was seen (changes evict sooner). */
const DEFAULT_TTL_MS = 5_000;
const MAX_CHANNELS = 10_000;

/**
 * The channel member repository with a read cache for permission checks (one membership lookup per post
 * by a non-admin): `cachedMember` reuses a membership read within the TTL; an insert or delete through
 * this repository evicts the channel's entries, and `evictChannel` (this instance's channels.events
 * consumer) drops what another replica changed. Only memberships are cached, never their absence, so a
 * user added elsewhere is not refused for the TTL. Members are never changed in place (insert, delete).
 * The ids of a channel's members (`userIdsOfChannel`, read for every post's mentions) are cached the same
 * way: within the TTL, dropped by an insert or delete here and by `evictChannel`; they grant nothing.
 */
export class CachingChannelMemberRepository implements ChannelMemberRepository, CachedChannelMembers {
  /** channel id → user id → the membership and when it was read. */
  private readonly entries = new Map<string, Map<string, { member: ChannelMember; at: number }>>();
  /** channel id → the ids of its members (at most `limit`) and when they were read. */
  private readonly memberIds = new Map<string, { ids: string[]; limit: number; at: number }>();
  /** Bumped by every eviction: a read that overlapped one is not cached. */
  private generation = 0;

  public constructor(
    private readonly store: ChannelMemberRepository,
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  public async cachedMember(channelId: string, userId: string): Promise<ChannelMember | undefined> {
    const hit = this.entries.get(channelId)?.get(userId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.member;
    const generation = this.generation;
    const member = await this.store.find(channelId, userId);
    if (member && generation === this.generation) {
      let channel = this.entries.get(channelId);
      if (!channel) {
        if (this.entries.size >= MAX_CHANNELS) this.entries.clear();
        channel = new Map();
        this.entries.set(channelId, channel);
      }
      channel.set(userId, { member, at: this.now() });
    }
    return member;
  }

  public evictChannel(channelId: string): void {
    this.generation += 1;
    this.entries.delete(channelId);
    this.memberIds.delete(channelId);
  }

  public async insert(member: ChannelMember): Promise<void> {
    this.evictChannel(member.channel_id);
    await this.store.insert(member);
  }

  public async delete(channelId: string, userId: string): Promise<boolean> {
    this.evictChannel(channelId);
    try {
      return await this.store.delete(channelId, userId);
    } finally {
      this.evictChannel(channelId);
    }
  }

  /** View counters only (roles unchanged); the cached copy is dropped so no stale counter is served. */
  public async update(channelId: string, userId: string, changes: MemberViewChanges): Promise<ChannelMember | undefined> {
    this.entries.get(channelId)?.delete(userId);
    return this.store.update(channelId, userId, changes);
  }

  /** Counters only: the channel's cached copies are dropped so no stale counter is served. */
  public async incrementMentions(channelId: string, targets: MentionTargets, root: boolean, at: number, urgent = false): Promise<void> {
    this.entries.delete(channelId);
    await this.store.incrementMentions(channelId, targets, root, at, urgent);
  }

  /** The cached copy is dropped so no stale props are served. */
  public async updateNotifyProps(channelId: string, userId: string, props: Readonly<Record<string, string>>, at: number): Promise<ChannelMember | undefined> {
    this.entries.get(channelId)?.delete(userId);
    try {
      return await this.store.updateNotifyProps(channelId, userId, props, at);
    } finally {
      this.entries.get(channelId)?.delete(userId);
    }
  }

  public find(channelId: string, userId: string): Promise<ChannelMember | undefined> {
    return this.store.find(channelId, userId);
  }

  public listByChannel(channelId: string, page: Page): Promise<ChannelMember[]> {
    return this.store.listByChannel(channelId, page);
  }

  public listByUser(userId: string): Promise<ChannelMember[]> {
    return this.store.listByUser(userId);
  }

  public channelIdsOfUser(userId: string): Promise<string[]> {
    return this.store.channelIdsOfUser(userId);
  }

  public async userIdsOfChannel(channelId: string, limit: number, after?: string): Promise<string[]> {
    // Only the first page is cached (every post reads it); later pages of a large channel go to the store.
    if (after !== undefined) return this.store.userIdsOfChannel(channelId, limit, after);
    const hit = this.memberIds.get(channelId);
    if (hit && hit.limit === limit && this.now() - hit.at < this.ttlMs) return [...hit.ids];
    const generation = this.generation;
    const ids = await this.store.userIdsOfChannel(channelId, limit);
    if (generation === this.generation) {
      if (this.memberIds.size >= MAX_CHANNELS) this.memberIds.clear();
      this.memberIds.set(channelId, { ids: [...ids], limit, at: this.now() });
    }
    return ids;
  }
}
