import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls every service's `/health/ready` (every `everyMs`, each request bounded) while a dependency is down,
 * and records per service how many answers were not 200 and when the first one came (ms after `start()`).
 */
export class ReadinessSampler {
  private running = false;
  private loop: Promise<void> | undefined;
  private startedAt = 0;
  public readonly unready = new Map<string, number>();
  public readonly firstUnreadyMs = new Map<string, number>();
  public samples = 0;

  public constructor(
    private readonly urls: ReadonlyMap<string, string>,
    private readonly everyMs = 500,
  ) {}

  public start(): void {
    this.running = true;
    this.startedAt = Date.now();
    this.loop = (async () => {
      while (this.running) {
        this.samples++;
        await Promise.all([...this.urls].map(async ([name, url]) => {
          const ok = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status === 200, () => false);
          if (ok) return;
          this.unready.set(name, (this.unready.get(name) ?? 0) + 1);
          if (!this.firstUnreadyMs.has(name)) this.firstUnreadyMs.set(name, Date.now() - this.startedAt);
        }));
        await sleep(this.everyMs);
      }
    })();
  }

  public async stop(): Promise<{ samples: number; unready: Record<string, number>; first_unready_ms: Record<string, number> }> {
    this.running = false;
    await this.loop;
    return { samples: this.samples, unready: Object.fromEntries(this.unready), first_unready_ms: Object.fromEntries(this.firstUnreadyMs) };
  }
}
