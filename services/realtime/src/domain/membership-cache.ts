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

/**
 * Channel member sets and team memberships, cached and evicted by the membership events that change them
 * (channels.events, users.events). A lookup that overlaps an eviction is answered but not cached, so an answer already on its way cannot undo the eviction. Concurrent lookups of one
 * channel share one call.
 */
export class MembershipCache {
  private readonly channels = new Map<string, Entry<ReadonlySet<string> | undefined>>();
  private readonly teams = new Map<string, Entry<boolean>>();
  private readonly inflight = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  /** Counts evictions: a lookup that overlapped any is answered but not cached. */
  private evictions = 0;

  public constructor(private readonly options: MembershipCacheOptions) {}

  /** The channel's members; undefined when the channel does not exist. */
  public async channelMembers(channelId: string): Promise<ReadonlySet<string> | undefined> {
    const now = this.options.clock.now();
    const hit = this.channels.get(channelId);
    if (hit && hit.expires > now) {
      this.channels.delete(channelId);
      this.channels.set(channelId, hit);
      return hit.value;
    }
    const running = this.inflight.get(channelId);
    if (running) return running;
    const before = this.evictions;
    const lookup = this.options.source
      .channelMemberIds(channelId)
      .then((ids) => {
        const value = ids === undefined ? undefined : new Set(ids);
        if (this.evictions === before) this.remember(this.channels, channelId, value, this.options.maxChannels);
        return value;
      })
      .finally(() => {
        if (this.inflight.get(channelId) === lookup) this.inflight.delete(channelId);
      });
    this.inflight.set(channelId, lookup);
    return lookup;
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
    if (this.evictions === before) this.remember(this.teams, key, value, this.options.maxTeamEntries);
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

  private remember<T>(map: Map<string, Entry<T>>, key: string, value: T, max: number): void {
    map.delete(key);
    map.set(key, { value, expires: this.options.clock.now() + this.options.ttlMs });
    while (map.size > max) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }
}
