import CircuitBreaker from 'opossum';
import { deliveryMetrics } from '@switchyard/metrics';
import type { SystemConfig } from '@switchyard/system-config';
import type { OutboundResult } from '../../domain/ports';

type Settings = SystemConfig['DeliverySettings'];
type Call = () => Promise<OutboundResult>;

/** A result the breaker counts as a failure: connection errors, timeouts and 5xx (4xx means the receiver is up). */
export function isBreakerFailure(result: OutboundResult): boolean {
  if (result.kind === 'failure') return result.reason === 'timeout' || result.reason === 'connection';
  return result.status >= 500;
}

class CountedFailure extends Error {
  public constructor(public readonly result: OutboundResult) {
    super('breaker failure');
  }
}

interface Entry {
  readonly breaker: CircuitBreaker<[Call], OutboundResult>;
  readonly signature: string;
  openedAt: number;
}

/**
 * One opossum breaker per callback origin (README "Circuit breaker"): it opens only when at least
 * BreakerMinRequests calls in the rolling BreakerWindowSeconds include BreakerErrorPercent failures;
 * while open, calls are not made (the caller gets `breaker_open` with the time until the trial call),
 * and one trial call goes after BreakerResetSeconds. Settings apply to breakers created after a change.
 */
export class OriginBreakers {
  private readonly entries = new Map<string, Entry>();

  public constructor(private readonly settings: () => Readonly<Settings>, private readonly now: () => number = Date.now) {}

  /** The call's result through the origin's breaker (never rejects: a refused or failed call is a failure result). */
  public run(origin: string, call: Call): Promise<OutboundResult> {
    const entry = this.entryFor(origin);
    // A plain promise chain, not async/await: fewer promises per delivery (each costs more while async hooks are on).
    return entry.breaker.fire(call).then(undefined, (error: unknown) => this.failureOf(error, origin, entry));
  }

  private failureOf(error: unknown, origin: string, entry: Entry): OutboundResult {
    if (error instanceof CountedFailure) return error.result;
    if ((error as { code?: string }).code === 'EOPENBREAKER') {
      const resetMs = this.settings().BreakerResetSeconds * 1000;
      return { kind: 'failure', reason: 'breaker_open', message: `circuit open for ${origin}`, latencyMs: 0, retryInMs: Math.max(50, entry.openedAt + resetMs - this.now()) };
    }
    // ESHUTDOWN (stopping) or an unexpected error of the call itself: a connection-level failure.
    return { kind: 'failure', reason: 'connection', message: (error as { message?: string }).message ?? String(error), latencyMs: 0 };
  }

  public isOpen(origin: string): boolean {
    return this.entries.get(origin)?.breaker.opened ?? false;
  }

  public shutdown(): void {
    for (const [origin, entry] of this.entries) {
      entry.breaker.shutdown();
      deliveryMetrics.breakerGone(origin);
    }
    this.entries.clear();
  }

  private entryFor(origin: string): Entry {
    const s = this.settings();
    const signature = `${s.BreakerMinRequests}/${s.BreakerWindowSeconds}/${s.BreakerErrorPercent}/${s.BreakerResetSeconds}`;
    const existing = this.entries.get(origin);
    if (existing && existing.signature === signature) return existing;
    existing?.breaker.shutdown();
    const windowMs = Math.max(10, Math.round(s.BreakerWindowSeconds * 1000));
    const breaker = new CircuitBreaker<[Call], OutboundResult>(
      (call: Call) =>
        call().then((result) => {
          if (isBreakerFailure(result)) throw new CountedFailure(result);
          return result;
        }),
      {
        timeout: false,
        errorThresholdPercentage: s.BreakerErrorPercent,
        volumeThreshold: s.BreakerMinRequests,
        rollingCountTimeout: windowMs,
        rollingCountBuckets: 10,
        resetTimeout: Math.max(1, Math.round(s.BreakerResetSeconds * 1000)),
      },
    );
    const entry: Entry = { breaker, signature, openedAt: 0 };
    breaker.on('open', () => {
      entry.openedAt = this.now();
      deliveryMetrics.breaker(origin, 'open');
    });
    breaker.on('halfOpen', () => deliveryMetrics.breaker(origin, 'half_open'));
    breaker.on('close', () => deliveryMetrics.breaker(origin, 'closed'));
    deliveryMetrics.breaker(origin, 'closed');
    this.entries.set(origin, entry);
    return entry;
  }
}
