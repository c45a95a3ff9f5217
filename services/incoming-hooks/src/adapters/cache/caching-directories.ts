import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import type { ChannelDirectory, UserDirectory } from '../../domain/ports';
import { TtlCache } from './ttl-cache';

const MISSING = Symbol('missing');
type Cached<T> = T | typeof MISSING;

/**
 * Short-lived cache in front of posts' channel lookups (the hot path of `POST /hooks/{key}` needs the
 * channel and, for private ones, the owner's membership). Only found channels and memberships are
 * cached; `evictChannel` is called from channels.events so changes apply before the TTL runs out.
 */
export class CachingChannelDirectory implements ChannelDirectory {
  private readonly channels: TtlCache<InternalChannel>;
  private readonly members: TtlCache<string>;

  public constructor(private readonly inner: ChannelDirectory, ttlMs: number) {
    this.channels = new TtlCache(ttlMs);
    this.members = new TtlCache(ttlMs);
  }

  public async channel(channelId: string): Promise<InternalChannel | undefined> {
    const hit = this.channels.get(channelId);
    if (hit) return hit;
    const channel = await this.inner.channel(channelId);
    if (channel) this.channels.set(channelId, channel);
    return channel;
  }

  public channelByName(teamId: string, name: string): Promise<InternalChannel | undefined> {
    return this.inner.channelByName(teamId, name);
  }

  public directChannel(userA: string, userB: string): Promise<InternalChannel> {
    return this.inner.directChannel(userA, userB);
  }

  public async memberRoles(channelId: string, userId: string): Promise<string | undefined> {
    const key = `${channelId}:${userId}`;
    const hit = this.members.get(key);
    if (hit !== undefined) return hit;
    const roles = await this.inner.memberRoles(channelId, userId);
    if (roles !== undefined) this.members.set(key, roles);
    return roles;
  }

  /** Not cached: a root can be deleted at any time. */
  public post(postId: string): ReturnType<ChannelDirectory['post']> {
    return this.inner.post(postId);
  }

  public evictChannel(channelId: string, userId?: string): void {
    this.channels.delete(channelId);
    if (userId !== undefined) this.members.delete(`${channelId}:${userId}`);
  }
}

/** Short-lived cache of users by id (the hook owner on every post); user changes evict. */
export class CachingUserDirectory implements UserDirectory {
  private readonly byId: TtlCache<Cached<InternalUser>>;

  public constructor(private readonly inner: UserDirectory, ttlMs: number) {
    this.byId = new TtlCache(ttlMs);
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    const found: InternalUser[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const hit = this.byId.get(id);
      if (hit === undefined) missing.push(id);
      else if (hit !== MISSING) found.push(hit);
    }
    if (missing.length > 0) {
      const loaded = await this.inner.usersByIds(missing);
      for (const user of loaded) {
        this.byId.set(user.id, user);
        found.push(user);
      }
    }
    return found;
  }

  public usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    return this.inner.usersByUsernames(usernames);
  }

  public teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    return this.inner.teamRoles(teamId, userId);
  }

  public evictUser(userId: string): void {
    this.byId.delete(userId);
  }
}
