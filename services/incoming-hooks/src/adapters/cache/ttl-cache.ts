/** A small map whose entries expire after `ttlMs` (the oldest go first past `max`). */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  public constructor(private readonly ttlMs: number, private readonly max = 10_000, private readonly now: () => number = Date.now) {}

  public get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  public set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    if (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  public delete(key: string): void {
    this.entries.delete(key);
  }

  public clear(): void {
    this.entries.clear();
  }
}
