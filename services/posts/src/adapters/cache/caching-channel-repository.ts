import type { Channel, ChannelChanges, ChannelType } from '../../domain/entities';
import type { CachedChannels, ChannelRepository, Page, PostCounts } from '../../domain/ports';
import { PostCountBatcher } from './post-count-batcher';

/** How long a channel read through `cached` is reused when no change was seen (changes evict sooner). */
const DEFAULT_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * The channel repository with a read cache for the create-post commands (one channel lookup per post):
 * `cached(id)` reuses a channel read within the TTL; a write through this repository evicts it, and
 * `evict` (this instance's channels.events consumer) drops what another replica changed. Counters
 * (`recordPost`) do not evict: the commands use the channel's identity, type and archive state only.
 * `recordPost` counts through a PostCountBatcher: concurrent posts of a channel share one counter write.
 */
export class CachingChannelRepository implements ChannelRepository, CachedChannels {
  private readonly entries = new Map<string, { channel: Channel; at: number }>();
  /** Bumped by every eviction: a read that overlapped one is not cached. */
  private generation = 0;
  private readonly counts: PostCountBatcher;

  public constructor(
    private readonly store: ChannelRepository,
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new PostCountBatcher((id, counts) => this.store.recordPosts(id, counts));
  }

  public async cached(id: string): Promise<Channel | undefined> {
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.channel;
    const generation = this.generation;
    const channel = await this.store.findById(id);
    if (channel && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(id, { channel, at: this.now() });
    }
    return channel;
  }

  /** Resolves when every counter write started through recordPost finished. */
  public countsWritten(): Promise<void> {
    return this.counts.idle();
  }

  public evict(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }

  public async insert(channel: Channel): Promise<void> {
    this.evict(channel.id);
    await this.store.insert(channel);
  }

  public async update(id: string, changes: ChannelChanges): Promise<Channel | undefined> {
    this.evict(id);
    try {
      return await this.store.update(id, changes);
    } finally {
      this.evict(id);
    }
  }

  public findById(id: string): Promise<Channel | undefined> {
    return this.store.findById(id);
  }

  public findByIds(ids: readonly string[]): Promise<Channel[]> {
    return this.store.findByIds(ids);
  }

  public findByName(teamId: string, name: string): Promise<Channel | undefined> {
    return this.store.findByName(teamId, name);
  }

  public listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]> {
    return this.store.listByTeam(teamId, types, includeArchived, page);
  }

  public recordPost(id: string, at: number, root: boolean): Promise<void> {
    return this.counts.add(id, at, root);
  }

  public recordPosts(id: string, counts: PostCounts): Promise<void> {
    return this.store.recordPosts(id, counts);
  }
}
