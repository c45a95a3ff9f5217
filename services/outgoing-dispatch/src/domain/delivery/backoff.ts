/** `Retry-After` as seconds or an HTTP date → ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value.trim()) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The delay before retry number `tries` (1-based): `RetryBackoffSeconds[tries-1]` ± `JitterPercent`,
 * or undefined when the retries are exhausted.
 */
export function backoffMs(tries: number, backoffSeconds: readonly number[], jitterPercent: number, random: () => number = Math.random): number | undefined {
  const base = backoffSeconds[tries - 1];
  if (base === undefined) return undefined;
  const jitter = (jitterPercent / 100) * (random() * 2 - 1);
  return Math.max(0, Math.round(base * 1000 * (1 + jitter)));
}

/** Connection errors, timeouts, 408, 429 and 5xx are retried (README "Delivery retries"). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
