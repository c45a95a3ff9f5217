import type { Clock, MembershipSource } from './ports';

export interface MembershipCacheOptions {
  readonly source: MembershipSource;
  readonly clock: Clock;
  /** How long an answer is kept (the reference: 30 min per connection). */
  readonly ttlMs: number;
  /** Channels kept; the least recently used goes first. */
  readonly maxChannels: number;
  /** (team, user) answers kept. */
  readonly maxTeamEntries: number;
}

interface Entry<T> {
  readonly value: T;
  readonly expires: number;
}

interface ChannelEntry {
  /** Mutable: joins and leaves update it in place (a lookup's set is this cache's own). */
  readonly value: Set<string> | undefined;
  readonly expires: number;
  /** When the lookup that read it started: it holds every join and leave made before then. */
  readonly readAt: number;
  /** Updated by membership events since it was read: membership events may use it, nothing else. */
  stale: boolean;
}

/**
 * Channel member sets and team memberships, cached and evicted by the membership events that change them
 * (channels.events, users.events). A lookup that overlaps an eviction is answered but not cached, so an answer already on its way cannot undo the eviction. Concurrent lookups of one
 * channel share one call.
 *
 * A join or leave does not throw the channel's set away: it is updated in place and marked stale. Events
 * about the membership itself (`user_added`, `user_removed`) go to that set (`membersAfterEvents`), so a
 * burst of joins (500 members added to a channel) costs no lookup per join; everything else (posts,
 * reactions, typing) reads the set again once after the burst (`channelMembers`), as it would after an
 * eviction, so who gets a post is always what posts says now.
 */
const NO_MEMBERS: ReadonlySet<string> = new Set();

export class MembershipCache {
  private readonly channels = new Map<string, ChannelEntry>();
  private readonly teams = new Map<string, Entry<boolean>>();
  private readonly inflight = new Map<string, { readonly startedAt: number; readonly lookup: Promise<Set<string> | undefined> }>();
  /** Counts evictions: a lookup that overlapped any is answered but not cached. */
  private evictions = 0;

  public constructor(private readonly options: MembershipCacheOptions) {}

  /**
   * The channel's members as posts has them (read again after any join or leave); undefined when the
   * channel does not exist. With `since` (ms: when the event to deliver happened), a set read before then
   * is read again: a join made just before the event may not have reached this replica yet (its
   * channels.events record can be handled after the event's record: Kafka orders neither topics nor the
   * partitions of one fetch), so only a set read after the event surely holds it.
   */
  public async channelMembers(channelId: string, since?: number): Promise<ReadonlySet<string> | undefined> {
    return this.members(channelId, false, since);
  }

  /**
   * The channel's members after the membership events handled so far: a set read before a join or leave
   * and updated by it is used as it is (no lookup). For the events about those joins and leaves only.
   */
  public async membersAfterEvents(channelId: string): Promise<ReadonlySet<string> | undefined> {
    return this.members(channelId, true);
  }

  /** A user joined the channel: a cached set gets them (and is stale); a lookup in flight is not cached. */
  public memberJoined(channelId: string, userId: string): void {
    this.changed(channelId, (set) => set.add(userId));
  }

  /** A user left the channel: a cached set loses them (and is stale); a lookup in flight is not cached. */
  public memberLeft(channelId: string, userId: string): void {
    this.changed(channelId, (set) => set.delete(userId));
  }

  private async members(channelId: string, staleAllowed: boolean, since = -Infinity): Promise<Set<string> | undefined> {
    const now = this.options.clock.now();
    const hit = this.channels.get(channelId);
    if (hit && hit.expires > now && (staleAllowed || !hit.stale) && (staleAllowed || hit.readAt > since)) {
      this.channels.delete(channelId);
      this.channels.set(channelId, hit);
      return hit.value;
    }
    const running = this.inflight.get(channelId);
    if (running && running.startedAt > since) return running.lookup;
    const before = this.evictions;
    const startedAt = now;
    const lookup = this.options.source
      .channelMemberIds(channelId)
      .then((ids) => {
        const value = ids === undefined ? undefined : new Set(ids);
        const newer = (this.channels.get(channelId)?.readAt ?? -Infinity) > startedAt;
        if (this.evictions === before && !newer) this.remember(this.channels, channelId, { value, expires: this.options.clock.now() + this.options.ttlMs, readAt: startedAt, stale: false }, this.options.maxChannels);
        return value;
      })
      .finally(() => {
        if (this.inflight.get(channelId)?.lookup === lookup) this.inflight.delete(channelId);
      });
    this.inflight.set(channelId, { startedAt, lookup });
    return lookup;
  }

  /**
   * What `isChannelMember` would answer now from the cache (a fresh set, not changed by membership events
   * since it was read), without a lookup; undefined when nothing usable is cached.
   */
  public knownMember(channelId: string, userId: string): boolean | undefined {
    const hit = this.channels.get(channelId);
    if (!hit || hit.stale || hit.expires <= this.options.clock.now()) return undefined;
    return hit.value?.has(userId) ?? false;
  }

  /**
   * The channel's members as `channelMembers(channelId, since)` would answer them from the cache, without a
   * lookup (a fresh set read after `since`); undefined when nothing usable is cached.
   */
  public knownMembers(channelId: string, since = -Infinity): ReadonlySet<string> | undefined {
    const hit = this.channels.get(channelId);
    if (!hit || hit.stale || hit.expires <= this.options.clock.now() || hit.readAt <= since) return undefined;
    return hit.value ?? NO_MEMBERS;
  }

  public async isChannelMember(channelId: string, userId: string): Promise<boolean> {
    return (await this.channelMembers(channelId))?.has(userId) ?? false;
  }

  public async isTeamMember(teamId: string, userId: string): Promise<boolean> {
    const key = `${teamId}:${userId}`;
    const hit = this.teams.get(key);
    if (hit && hit.expires > this.options.clock.now()) return hit.value;
    const before = this.evictions;
    const value = await this.options.source.isTeamMember(teamId, userId);
    if (this.evictions === before) this.remember(this.teams, key, { value, expires: this.options.clock.now() + this.options.ttlMs }, this.options.maxTeamEntries);
    return value;
  }

  /**
   * The users of `userIds` in the team, in order: cached answers at once, the others looked up together
   * (a failed lookup counts as not a member, so nothing leaks when users-bots is down).
   */
  public async teamMembersAmong(teamId: string, userIds: readonly string[]): Promise<string[]> {
    const now = this.options.clock.now();
    const known: (boolean | undefined)[] = userIds.map((u) => {
      const hit = this.teams.get(`${teamId}:${u}`);
      return hit && hit.expires > now ? hit.value : undefined;
    });
    const missing = userIds.filter((_, i) => known[i] === undefined);
    if (missing.length > 0) {
      const answers = await Promise.all(missing.map((u) => this.isTeamMember(teamId, u).catch(() => false)));
      let next = 0;
      for (let i = 0; i < known.length; i += 1) if (known[i] === undefined) known[i] = answers[next++];
    }
    return userIds.filter((_, i) => known[i] === true);
  }

  /** A member joined or left, or the channel changed: the next lookup asks posts again. */
  public evictChannel(channelId: string): void {
    this.evictions += 1;
    this.channels.delete(channelId);
    this.inflight.delete(channelId);
  }

  public evictTeamMember(teamId: string, userId: string): void {
    const key = `${teamId}:${userId}`;
    this.evictions += 1;
    this.teams.delete(key);
  }

  public get size(): { channels: number; teams: number } {
    return { channels: this.channels.size, teams: this.teams.size };
  }

  /** A join or leave: the cached set is updated in place (a channel cached as missing is evicted: it exists now). */
  private changed(channelId: string, update: (set: Set<string>) => void): void {
    this.evictions += 1;
    this.inflight.delete(channelId);
    const hit = this.channels.get(channelId);
    if (hit?.value === undefined) {
      this.channels.delete(channelId);
      return;
    }
    update(hit.value);
    hit.stale = true;
  }

  private remember<T>(map: Map<string, T>, key: string, entry: T, max: number): void {
    map.delete(key);
    map.set(key, entry);
    while (map.size > max) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }
}
