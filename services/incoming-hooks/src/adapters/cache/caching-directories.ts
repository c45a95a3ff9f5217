import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { ReadThroughCache } from '@switchyard/read-cache';
import type { ChannelDirectory, UserDirectory } from '../../domain/ports';

/**
 * Short-lived cache in front of posts' channel lookups (the hot path of `POST /hooks/{key}` needs the
 * channel and, for private ones, the owner's membership). Only found channels and memberships are
 * cached; `evictChannel` is called from channels.events so changes apply before the TTL runs out, and a
 * lookup racing such an eviction is not cached. Requests in flight when an entry expires share one lookup.
 */
export class CachingChannelDirectory implements ChannelDirectory {
  private readonly channels: ReadThroughCache<InternalChannel>;
  private readonly members: ReadThroughCache<string>;

  public constructor(private readonly inner: ChannelDirectory, ttlMs: number, now?: () => number) {
    this.channels = new ReadThroughCache({ ttlMs, ...(now ? { now } : {}) });
    this.members = new ReadThroughCache({ ttlMs, ...(now ? { now } : {}) });
  }

  public channel(channelId: string): Promise<InternalChannel | undefined> {
    return this.channels.get(channelId, () => this.inner.channel(channelId));
  }

  public channelByName(teamId: string, name: string): Promise<InternalChannel | undefined> {
    return this.inner.channelByName(teamId, name);
  }

  public directChannel(userA: string, userB: string): Promise<InternalChannel> {
    return this.inner.directChannel(userA, userB);
  }

  public memberRoles(channelId: string, userId: string): Promise<string | undefined> {
    return this.members.get(`${channelId}:${userId}`, () => this.inner.memberRoles(channelId, userId));
  }

  /** Not cached: a root can be deleted at any time. */
  public post(postId: string): ReturnType<ChannelDirectory['post']> {
    return this.inner.post(postId);
  }

  public evictChannel(channelId: string, userId?: string): void {
    this.channels.evict(channelId);
    if (userId !== undefined) this.members.evict(`${channelId}:${userId}`);
  }
}

/**
 * Short-lived cache of users by id (the hook owner on every post); user changes evict. The ids of one call
 * that miss are looked up in one request; requests in flight when an entry expires share one lookup.
 */
export class CachingUserDirectory implements UserDirectory {
  private readonly byId: ReadThroughCache<InternalUser>;
  private readonly senders: ReadThroughCache<{ readonly userId: string; readonly isBot: boolean }>;

  public constructor(private readonly inner: UserDirectory, ttlMs: number, now?: () => number) {
    this.byId = new ReadThroughCache({ ttlMs, ...(now ? { now } : {}) });
    this.senders = new ReadThroughCache({ ttlMs: 60_000, ...(now ? { now } : {}) });
  }

  /** The users found, each once, in the order of `ids`. */
  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    if (ids.length === 1) {
      // The hook owner on every post: a hit needs no batch.
      const hit = this.byId.peek(ids[0] as string);
      if (hit) return [hit];
    }
    const wanted: string[] = [];
    let batch: Promise<Map<string, InternalUser>> | undefined;
    // ReadThroughCache calls `load` at once for each miss, so every miss of this call is in `wanted`
    // before the batch (started a microtask later) sends it.
    const load = (id: string): Promise<InternalUser | undefined> => {
      wanted.push(id);
      batch ??= Promise.resolve().then(async () => new Map((await this.inner.usersByIds(wanted)).map((user) => [user.id, user])));
      return batch.then((found) => found.get(id));
    };
    const users = await Promise.all([...new Set(ids)].map((id) => this.byId.get(id, () => load(id))));
    return users.filter((user): user is InternalUser => user !== undefined);
  }

  public usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    return this.inner.usersByUsernames(usernames);
  }

  public teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    return this.inner.teamRoles(teamId, userId);
  }

  /** Reused for a minute (users-bots creates the bot once; a renamed colliding user is seen within it). */
  public async integrationSender(username: string): Promise<{ readonly userId: string; readonly isBot: boolean }> {
    const sender = await this.senders.get(username, () => this.inner.integrationSender(username));
    return sender ?? this.inner.integrationSender(username);
  }

  public evictUser(userId: string): void {
    this.byId.evict(userId);
  }
}
