import { counter, gauge, histogram } from './registry';

/** Outcome of one outgoing call: what the delivery log records. */
export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

const attempts = () =>
  counter('switchyard_outgoing_delivery_attempts_total', 'Outgoing webhook/action calls, by outcome (delivered, retry, dead) and status class (2xx..5xx, or error for no answer)', ['outcome', 'status_class']);
const latency = () => histogram('switchyard_outgoing_delivery_duration_seconds', 'Latency of outgoing calls, by status class', ['status_class']);
const deadLetters = () => counter('switchyard_outgoing_dead_letters_total', 'Deliveries that ended dead (retries exhausted, blocked by the SSRF guard, hook disabled or deleted)', ['reason']);
const hooksDisabled = () => counter('switchyard_outgoing_hooks_disabled_total', 'Outgoing hooks disabled (their receiver answered 410 Gone, their newest deliveries all went dead, or their creator lost the right to their bot)', []);
const rateLimited = () =>
  counter('switchyard_outgoing_deliveries_rate_limited_total', 'Delivery attempts put off by the per-hook outgoing rate limit (RateLimitSettings.OutgoingWebhookPerSec): delayed, never dropped', []);
const breakerState = () => gauge('switchyard_outgoing_breaker_state', 'Circuit breaker per callback origin: 0 closed, 1 half-open, 2 open', ['origin']);
const breakerOpened = () => counter('switchyard_outgoing_breaker_opened_total', 'Times a callback origin\'s circuit breaker opened', ['origin']);

let pendingSource: (() => Promise<number>) | undefined;
const pending = () =>
  gauge('switchyard_outgoing_deliveries_pending', 'Deliveries waiting for a retry or a first attempt (status pending or failed), read from the store at scrape time', [], async function collect() {
    if (!pendingSource) return;
    try {
      this.set(await pendingSource());
    } catch {
      // The store is down: keep the last value (its own metrics and the readiness probe say why).
    }
  });

export function statusClass(status: number | undefined): string {
  if (status === undefined || status < 100 || status > 599) return 'error';
  return `${Math.floor(status / 100)}xx`;
}

export const deliveryMetrics = {
  attempt(outcome: AttemptOutcome, status: number | undefined, seconds: number): void {
    const cls = statusClass(status);
    attempts().inc({ outcome, status_class: cls });
    latency().observe({ status_class: cls }, seconds);
  },
  dead(reason: 'retries_exhausted' | 'blocked' | 'gone' | 'hook_unavailable'): void {
    deadLetters().inc({ reason });
  },
  hookDisabled(): void {
    hooksDisabled().inc();
  },
  rateLimited(): void {
    rateLimited().inc();
  },
  /** `origin` is scheme://host:port of a callback URL: bounded by the hooks an admin configured, never a path. */
  breaker(origin: string, state: 'closed' | 'half_open' | 'open'): void {
    breakerState().set({ origin }, state === 'closed' ? 0 : state === 'half_open' ? 1 : 2);
    if (state === 'open') breakerOpened().inc({ origin });
  },
  breakerGone(origin: string): void {
    breakerState().remove({ origin });
  },
  /** How to count pending deliveries at scrape time (one store query per scrape). */
  pendingFrom(source: () => Promise<number>): void {
    pendingSource = source;
    pending();
  },
};
