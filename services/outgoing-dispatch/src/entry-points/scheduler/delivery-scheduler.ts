import { attemptReleasingOnError, leaseMs } from '../../domain/delivery/attempt-delivery.usecase';
import type { Deps } from '../../domain/ports';

export interface DeliverySchedulerOptions {
  /** The longest sleep between two scans. */
  readonly intervalMs: number;
  /** Deliveries claimed per scan. */
  readonly batchSize: number;
}

/**
 * Picks due deliveries on start and then periodically (and at the exact time a retry is due when this
 * instance scheduled it), claiming them atomically, so retries survive restarts and a delivery whose
 * instance died is taken over once its claim runs out.
 */
export class DeliveryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private nextWake = Number.POSITIVE_INFINITY;
  private running = false;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<unknown>>();

  public constructor(private readonly deps: () => Deps, private readonly options: DeliverySchedulerOptions) {}

  public start(): void {
    this.stopped = false;
    this.wakeAt(0);
  }

  public async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Run a scan at `time` (ms epoch) unless one is already planned earlier. */
  public wakeAt(time: number): void {
    if (this.stopped) return;
    const now = Date.now();
    const at = Math.max(now, time);
    if (at >= this.nextWake && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextWake = at;
    this.timer = setTimeout(() => void this.track(this.scan()), at - now);
    this.timer.unref?.();
  }

  private async scan(): Promise<void> {
    this.timer = undefined;
    this.nextWake = Number.POSITIVE_INFINITY;
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    const deps = this.deps();
    try {
      for (;;) {
        this.again = false;
        const now = deps.clock.now();
        const claimed = await deps.deliveries.claimDue({ now, owner: deps.instanceId, leaseUntil: now + leaseMs(deps) }, this.options.batchSize);
        const attempts = claimed.map((d) => this.track(attemptReleasingOnError(deps, d)));
        await Promise.allSettled(attempts);
        if (this.stopped || (claimed.length < this.options.batchSize && !this.again)) break;
      }
      const next = await deps.deliveries.nextDueAt();
      const fallback = Date.now() + this.options.intervalMs;
      this.running = false;
      this.wakeAt(next === undefined ? fallback : Math.min(fallback, Math.max(next, Date.now() + 5)));
    } catch (error) {
      deps.logger.error('delivery scan failed', { error: String(error) });
      this.running = false;
      this.wakeAt(Date.now() + this.options.intervalMs);
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }
}
