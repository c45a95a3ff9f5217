export interface ReadThroughCacheOptions {
  /** How long a value read is reused (0 or less: never cached, and reads are not shared either). */
  readonly ttlMs: number;
  /** Entries kept at most; past it the oldest goes first. Default 10,000. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface Loading<V> {
  readonly generation: number;
  promise?: Promise<V | undefined>;
}

/**
 * A bounded read-through cache with time-to-live and eviction that a racing read cannot undo: `evict`
 * bumps a generation, and a load that started before an eviction is returned but not cached (it may
 * predate the change the eviction announced). Concurrent misses of one key share one load (when an entry
 * expires under load, the store is read once, not once per request in flight), unless an eviction came
 * between them: a read that starts after an eviction never joins a load from before it. The caching
 * repositories of every service use it.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, Loading<V>>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly now: () => number;

  public constructor(private readonly options: ReadThroughCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached value of `key` within the TTL, else `load()`'s (called at once, before this returns),
   * cached when defined and `keep` accepts it. A miss while another read of `key` is loading, with no
   * eviction since it started, waits for that load instead of starting its own.
   */
  public get(key: string, load: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      if (this.now() - hit.at < this.options.ttlMs) return Promise.resolve(hit.value);
      this.entries.delete(key);
    }
    if (this.options.ttlMs <= 0) return load();
    const running = this.loading.get(key);
    if (running?.promise && running.generation === this.generation) return running.promise;
    const loading: Loading<V> = { generation: this.generation };
    this.loading.set(key, loading);
    loading.promise = this.fill(key, loading, load, keep);
    return loading.promise;
  }

  /** The cached value of `key` within the TTL, without loading (undefined: not cached or expired). */
  public peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && this.now() - hit.at < this.options.ttlMs ? hit.value : undefined;
  }

  /** Drops `key`; a load of any key that is running now is not cached, and later reads do not join it. */
  public evict(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Drops everything; a load that is running now is not cached, and later reads do not join it. */
  public clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  public get size(): number {
    return this.entries.size;
  }

  private async fill(key: string, loading: Loading<V>, load: () => Promise<V | undefined>, keep: (value: V) => boolean): Promise<V | undefined> {
    try {
      const value = await load();
      if (value !== undefined && loading.generation === this.generation && keep(value)) this.remember(key, value);
      return value;
    } finally {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    }
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
