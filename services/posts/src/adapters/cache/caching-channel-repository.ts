import { ReadThroughCache } from '@switchyard/read-cache';
import type { Channel, ChannelChanges, ChannelType } from '../../domain/entities';
import type { AcrossTeamsFilter, CachedChannels, ChannelRepository, ChannelScope, Page, PostCounts } from '../../domain/ports';
import { PostCountBatcher } from './post-count-batcher';

/** How long a channel read through `cached` is reused when no change was seen (changes evict sooner). */
const DEFAULT_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * The channel repository with a read cache for the create-post commands (one channel lookup per post):
 * `cached(id)` reuses a channel read within the TTL; a write through this repository evicts it, and
 * `evict` (this instance's channels.events consumer) drops what another replica changed. Counters
 * (`recordPost`) do not evict: the commands use the channel's identity, type and archive state only.
 * `recordPost` and `recordPosts` count through a PostCountBatcher: concurrent posts of a channel share one counter write.
 */
export class CachingChannelRepository implements ChannelRepository, CachedChannels {
  /** Reads through `cached`; an eviction that overlaps a read keeps that read out of the cache. */
  private readonly entries: ReadThroughCache<Channel>;
  private readonly counts: PostCountBatcher;

  public constructor(
    private readonly store: ChannelRepository,
    ttlMs = DEFAULT_TTL_MS,
    now: () => number = Date.now,
  ) {
    this.entries = new ReadThroughCache({ ttlMs, maxEntries: MAX_ENTRIES, now });
    this.counts = new PostCountBatcher((id, counts) => this.store.recordPosts(id, counts));
  }

  public cached(id: string): Promise<Channel | undefined> {
    return this.entries.get(id, () => this.store.findById(id));
  }

  /** Resolves when every counter write started through recordPost finished. */
  public countsWritten(): Promise<void> {
    return this.counts.idle();
  }

  public evict(id: string): void {
    this.entries.evict(id);
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

  public findScopes(ids: readonly string[]): Promise<ChannelScope[]> {
    return this.store.findScopes(ids);
  }

  public findByName(teamId: string, name: string): Promise<Channel | undefined> {
    return this.store.findByName(teamId, name);
  }

  public listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]> {
    return this.store.listByTeam(teamId, types, includeArchived, page);
  }

  public listAcrossTeams(filter: AcrossTeamsFilter, limit: number): Promise<Channel[]> {
    return this.store.listAcrossTeams(filter, limit);
  }

  public recordPost(id: string, at: number, root: boolean): Promise<void> {
    return this.counts.add(id, at, root);
  }

  public recordPosts(id: string, counts: PostCounts): Promise<void> {
    return this.counts.addCounts(id, counts);
  }
}
