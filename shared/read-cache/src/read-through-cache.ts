export interface ReadThroughCacheOptions {
  /** How long a value read is reused (0 or less: never cached). */
  readonly ttlMs: number;
  /** Entries kept at most; past it the oldest goes first. Default 10,000. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/**
 * A bounded read-through cache with time-to-live and eviction that a racing read cannot undo: `evict`
 * bumps a generation, and a load that started before an eviction is returned but not cached (it may
 * predate the change the eviction announced). The caching repositories of every service use it.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly now: () => number;

  public constructor(private readonly options: ReadThroughCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached value of `key` within the TTL, else `load()`'s, cached when defined and `keep` accepts it. */
  public async get(key: string, load: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      if (this.now() - hit.at < this.options.ttlMs) return hit.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation && this.options.ttlMs > 0 && keep(value)) this.remember(key, value);
    return value;
  }

  /** Drops `key`; a load of any key that is running now is not cached. */
  public evict(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Drops everything; a load that is running now is not cached. */
  public clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  public get size(): number {
    return this.entries.size;
  }

  private remember(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
