import type { AppError } from '@switchyard/errors';
import { actionErrors } from '../errors';
import { retryAfterMs } from '../delivery/backoff';
import type { OutboundResult } from '../ports';

/**
 * The longest `Retry-After` passed on to the client (seconds). An integration answering 429 with
 * `Retry-After: 999999` must not tell a client to wait eleven days; an hour is the most we relay.
 */
export const MAX_RELAYED_RETRY_AFTER_S = 3600;

/** `Retry-After` as the integration sent it (seconds or an HTTP date) → whole seconds, capped; undefined when unreadable. */
export function relayedRetryAfter(value: string | undefined, now: number): string | undefined {
  const ms = retryAfterMs(value, now);
  if (ms === undefined) return undefined;
  return String(Math.min(MAX_RELAYED_RETRY_AFTER_S, Math.max(0, Math.ceil(ms / 1000))));
}

/**
 * What the client of an action or dialog route sees when the integration did not answer 200 (the
 * reference as of 11.10, mattermost-wire-3.md §4.4): 429 and 503 pass through with their `Retry-After`
 * (capped), any other 5xx becomes 502, everything else (3xx, 4xx, connection errors, timeouts) stays
 * the 400 `action_integration` error of earlier versions. Undefined for a 200.
 */
export function upstreamAnswerError(result: OutboundResult, now: number): AppError | undefined {
  if (result.kind === 'failure') return actionErrors.integration(`err=${result.message}`);
  const { status } = result;
  if (status === 200) return undefined;
  if (status === 429 || status === 503) {
    const retryAfter = relayedRetryAfter(result.retryAfter, now);
    return actionErrors.integration(`status=${status}`, { statusCode: status, ...(retryAfter !== undefined ? { headers: { 'Retry-After': retryAfter } } : {}) });
  }
  if (status >= 500 && status <= 599) return actionErrors.integration(`status=${status}`, { statusCode: 502 });
  return actionErrors.integration(`status=${status}`);
}
