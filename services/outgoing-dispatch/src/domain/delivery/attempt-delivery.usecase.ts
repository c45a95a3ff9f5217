import { isAppError } from '@switchyard/errors';
import type { CreatePostCommandPayload } from '@switchyard/contracts';
import { isOrderedHook, type Delivery, type DeliveryChanges, type OutgoingHook } from '../entities';
import { orderWaitUntil, wakeNextInChain } from './delivery-order';
import { activeSigners } from '../hooks/regen-token.usecase';
import type { DeadReason, Deps, OutboundResult } from '../ports';
import { signedHeaders } from '../secrets';
import { backoffMs, isRetryableStatus, retryAfterMs } from './backoff';
import { buildReply, parseHookResponse } from './build-reply';
import { afterDeadDelivery, hookDisabledAlert } from '../alerts/hook-alerts';

export const USER_AGENT = 'Mattermost-Bot/1.1';

export type AttemptOutcome = 'delivered' | 'failed' | 'dead' | 'waiting' | 'lost';

/** Request timeout of integration calls (`OutgoingIntegrationRequestsTimeout`, seconds). */
export function integrationTimeoutMs(deps: Pick<Deps, 'liveConfig'>): number {
  return deps.liveConfig.current().ServiceSettings.OutgoingIntegrationRequestsTimeout * 1000;
}

/** How long a claim lasts: the request timeout plus a margin for the reply. */
export function leaseMs(deps: Pick<Deps, 'liveConfig'>): number {
  return integrationTimeoutMs(deps) + 15_000;
}

/**
 * attemptDelivery; on an unexpected error (a store read failing, a bug) the claim is released and the
 * delivery retried on the RetryBackoffSeconds schedule like a failed call (`tries` counts it, `attempts`
 * does not: no call was made), then `dead`, so a failure that never passes ends in the delivery log and
 * the dead-letter metric instead of being retried every second for ever. When the store itself is down,
 * recording this fails too: the claim then runs out and a scheduler tries again later (nothing counted).
 */
export function attemptReleasingOnError(deps: Deps, delivery: Delivery, hook?: OutgoingHook): Promise<AttemptOutcome> {
  // A catch on the attempt's own promise (no async wrapper around it: one promise less per delivery).
  return attemptDelivery(deps, delivery, hook).catch((error: unknown) => releaseAfterError(deps, delivery, error));
}

/** The claim released and the delivery retried (or dead) after an unexpected error; rethrows it. */
async function releaseAfterError(deps: Deps, delivery: Delivery, error: unknown): Promise<never> {
  const now = deps.clock.now();
  const settings = deps.liveConfig.current().DeliverySettings;
  const tries = delivery.tries + 1;
  const delay = backoffMs(tries, settings.RetryBackoffSeconds, settings.JitterPercent);
  const lastError = `internal: ${String(error)}`;
  if (delay === undefined) {
    const recorded = await deps.deliveries.finish(delivery.id, deps.instanceId, { status: 'dead', tries, lastError, nextAttemptAt: 0, updateAt: now }).catch(() => false);
    if (recorded) deps.observer?.dead('retries_exhausted');
  } else {
    await deps.deliveries.finish(delivery.id, deps.instanceId, { tries, lastError, nextAttemptAt: now + delay, updateAt: now }).catch(() => false);
    deps.wakeAt(now + delay);
  }
  throw error;
}

/**
 * One attempt of a claimed delivery: signed POST to the callback URL, then the result recorded with the
 * claim released. 2xx (and other final answers) → delivered, the answer may post a reply; 410 → the hook
 * is disabled and the delivery is dead; connection errors, timeouts, 408, 429 and 5xx → retried after
 * the backoff (or `Retry-After`) until RetryBackoffSeconds is exhausted → dead. While the origin's
 * breaker is open the delivery waits without using up an attempt. `known` is the hook as the caller just
 * read it (firing); otherwise it is read from the store (a retry: it may have changed since).
 */
export async function attemptDelivery(deps: Deps, delivery: Delivery, known?: OutgoingHook): Promise<AttemptOutcome> {
  const start = deps.clock.now();
  const hook = known ?? (await deps.hooks.findById(delivery.hookId));
  const config = deps.liveConfig.current();
  const stopReason = !hook || hook.deleteAt !== 0 ? 'the hook was deleted' : hook.disabledAt !== 0 ? 'the hook is disabled' : !config.ServiceSettings.EnableOutgoingWebhooks ? 'outgoing webhooks are disabled' : undefined;
  if (stopReason !== undefined || !hook) {
    return finish(deps, delivery, { status: 'dead', lastError: stopReason ?? 'the hook was deleted', nextAttemptAt: 0 }, 'dead', 'hook_unavailable');
  }
  const outcome = await attemptWithHook(deps, delivery, hook, start);
  if ((outcome === 'delivered' || outcome === 'dead') && isOrderedHook(hook)) await wakeNextInChain(deps, delivery);
  return outcome;
}

async function attemptWithHook(deps: Deps, delivery: Delivery, hook: OutgoingHook, start: number): Promise<AttemptOutcome> {
  // Most hooks are neither ordered nor rate limited: no hold-back call (and its promises) for them.
  if (mayHoldBack(deps, hook)) {
    const waited = await holdBack(deps, hook, delivery, start);
    if (waited) return waited;
  }
  const headers = {
    'Content-Type': delivery.contentType,
    Accept: 'application/json',
    'User-Agent': USER_AGENT,
    ...signedHeaders(delivery.id, Math.floor(start / 1000), delivery.body, activeSigners(hook, start)),
  };
  const result = await deps.client.post({ url: delivery.url, headers, body: delivery.body, timeoutMs: integrationTimeoutMs(deps) });
  const now = deps.clock.now();
  if (result.kind === 'failure' && result.reason === 'breaker_open') {
    const at = now + Math.max(1, result.retryInMs ?? 1000);
    deps.wakeAt(at);
    return finish(deps, delivery, { nextAttemptAt: at, lastError: result.message }, 'waiting');
  }
  const attempted = { attempts: delivery.attempts + 1, tries: delivery.tries + 1, lastLatencyMs: result.latencyMs, updateAt: now };
  if (result.kind === 'failure') {
    logFailure(deps, hook, delivery, result.message);
    if (result.reason === 'blocked') {
      const outcome = await finish(deps, delivery, { ...attempted, status: 'dead', lastStatusCode: 0, lastError: result.message, nextAttemptAt: 0 }, 'dead', 'blocked');
      void afterDeadDelivery(deps, hook, delivery, { attempts: attempted.attempts, lastStatusCode: 0, lastError: result.message });
      return outcome;
    }
    // The receiver got the request; only its answer was over the cap (no reply is posted).
    if (result.reason === 'too_large') return finish(deps, delivery, { ...attempted, status: 'delivered', lastStatusCode: 0, lastError: result.message, nextAttemptAt: 0 }, 'delivered');
    return retryOrDie(deps, hook, delivery, { ...attempted, lastStatusCode: 0, lastError: result.message }, undefined, now);
  }
  if (result.status === 410) {
    logFailure(deps, hook, delivery, 'status=410: hook disabled');
    await deps.hooks.replace({ ...hook, disabledAt: now, updateAt: Math.max(now, hook.updateAt + 1) });
    deps.observer?.hookDisabled();
    void hookDisabledAlert(deps, hook, 'the receiver answered 410 Gone', delivery.url);
    return finish(deps, delivery, { ...attempted, status: 'dead', lastStatusCode: 410, lastError: 'the receiver answered 410 Gone: hook disabled', nextAttemptAt: 0 }, 'dead', 'gone');
  }
  if (isRetryableStatus(result.status)) {
    logFailure(deps, hook, delivery, `status=${result.status}`);
    return retryOrDie(deps, hook, delivery, { ...attempted, lastStatusCode: result.status, lastError: `status=${result.status}` }, retryAfterMs(result.retryAfter, now), now);
  }
  const commands = replyCommands(deps, hook, delivery, result, now);
  // Most answers ask for no reply: no store call (and none of its promises) for them.
  const reply = commands.length === 0 ? STORED : await storeReply(deps, commands);
  if (reply.kind === 'not_stored') {
    logFailure(deps, hook, delivery, `reply post not stored: ${reply.message}`);
    return retryOrDie(deps, hook, delivery, { ...attempted, lastStatusCode: result.status, lastError: `reply post not stored: ${reply.message}` }, undefined, deps.clock.now());
  }
  const lastError = reply.kind === 'refused' ? `reply post refused: ${reply.message}` : '';
  // Written out (not `{ ...attempted, ... }`): the common outcome, and V8 is slow at a spread followed by new keys.
  const { attempts, tries, lastLatencyMs, updateAt } = attempted;
  return finish(deps, delivery, { attempts, tries, lastLatencyMs, updateAt, status: 'delivered', lastStatusCode: result.status, lastError, nextAttemptAt: 0 }, 'delivered');
}

/** Whether holdBack has anything to check: the hook is ordered, or an outgoing rate limit is set (0 = none). */
function mayHoldBack(deps: Deps, hook: OutgoingHook): boolean {
  return isOrderedHook(hook) || (deps.rateLimiter !== undefined && deps.liveConfig.current().RateLimitSettings.OutgoingWebhookPerSec > 0);
}

/**
 * Whether this attempt must wait instead (no call, no attempt counted; the record keeps its status and is
 * due again later, so the wait survives restarts): behind an earlier delivery of its (hook, channel, URL)
 * for hooks that hear more than `posted` (orderWaitUntil); over the hook's outgoing rate limit
 * (`RateLimitSettings.OutgoingWebhookPerSec` / `MaxBurst`): the storm is delayed, never dropped, and shows
 * in the delivery log (`last_error`, `next_attempt_at`) and the rate-limited metric.
 */
async function holdBack(deps: Deps, hook: OutgoingHook, delivery: Delivery, now: number): Promise<AttemptOutcome | undefined> {
  if (isOrderedHook(hook)) {
    const order = await orderWaitUntil(deps, delivery, now);
    if (order) {
      deps.wakeAt(order.until);
      return finish(deps, delivery, { nextAttemptAt: order.until, lastError: `waiting for the earlier delivery ${order.earlierId} of this channel and URL (order)` }, 'waiting');
    }
  }
  const limits = deps.liveConfig.current().RateLimitSettings;
  const delay = deps.rateLimiter ? await deps.rateLimiter.delayMs(hook.id, limits.OutgoingWebhookPerSec, limits.OutgoingWebhookMaxBurst) : 0;
  if (delay <= 0) return undefined;
  deps.observer?.rateLimited?.();
  const at = now + delay;
  deps.wakeAt(at);
  return finish(deps, delivery, { nextAttemptAt: at, lastError: `rate limited: over the hook's ${limits.OutgoingWebhookPerSec}/s outgoing limit, waiting` }, 'waiting');
}

type ReplyOutcome = { readonly kind: 'stored' } | { readonly kind: 'refused' | 'not_stored'; readonly message: string };

const STORED: ReplyOutcome = { kind: 'stored' };

/** The reply posts the answer asks for: none for an empty answer, or for a delivery of an event other than `posted`. */
function replyCommands(deps: Deps, hook: OutgoingHook, delivery: Delivery, result: Extract<OutboundResult, { kind: 'response' }>, now: number): CreatePostCommandPayload[] {
  // Only a `posted` delivery's answer may post a reply (the reference's outgoing webhook answer).
  if (delivery.eventType !== undefined && delivery.eventType !== 'posted') return [];
  const response = parseHookResponse(result.body);
  return response ? buildReply(hook, delivery, response, deps.liveConfig.current(), now) : [];
}

/**
 * Creates the answer's reply posts and resolves once they are stored (readable through the API), so the
 * delivery is recorded as delivered only then. Posts refusing a reply (4xx: archived channel, invalid
 * post) is final, as the reference drops it; any other failure retries the delivery after its backoff
 * (the receiver is called again with the same `webhook-id`; reply post ids are derived from the delivery).
 */
async function storeReply(deps: Deps, commands: CreatePostCommandPayload[]): Promise<ReplyOutcome> {
  try {
    await deps.postCommands.createPosts(commands);
    return STORED;
  } catch (error) {
    if (isAppError(error) && error.statusCode < 500) return { kind: 'refused', message: error.id };
    return { kind: 'not_stored', message: isAppError(error) ? error.id : String(error) };
  }
}

async function retryOrDie(deps: Deps, hook: OutgoingHook, delivery: Delivery, changes: DeliveryChanges, retryAfter: number | undefined, now: number): Promise<AttemptOutcome> {
  const settings = deps.liveConfig.current().DeliverySettings;
  const tries = changes.tries ?? delivery.tries + 1;
  const delay = backoffMs(tries, settings.RetryBackoffSeconds, settings.JitterPercent);
  if (delay === undefined) {
    const outcome = await finish(deps, delivery, { ...changes, status: 'dead', nextAttemptAt: 0 }, 'dead', 'retries_exhausted');
    void afterDeadDelivery(deps, hook, delivery, { attempts: changes.attempts ?? delivery.attempts, lastStatusCode: changes.lastStatusCode ?? 0, lastError: changes.lastError ?? '' });
    return outcome;
  }
  const at = now + (retryAfter ?? delay);
  deps.wakeAt(at);
  return finish(deps, delivery, { ...changes, status: 'failed', nextAttemptAt: at }, 'failed');
}

async function finish(deps: Deps, delivery: Delivery, changes: DeliveryChanges, outcome: AttemptOutcome, deadReason?: DeadReason): Promise<AttemptOutcome> {
  // Most outcomes carry their updateAt already: no copy of the changes for them.
  const stamped = changes.updateAt !== undefined ? changes : { ...changes, updateAt: deps.clock.now() };
  const held = await deps.deliveries.finish(delivery.id, deps.instanceId, stamped);
  observe(deps, changes, outcome, deadReason);
  return held ? outcome : 'lost';
}

/** A call was made when the changes count an attempt; its status 0 means no answer. */
function observe(deps: Deps, changes: DeliveryChanges, outcome: AttemptOutcome, deadReason: DeadReason | undefined): void {
  const observer = deps.observer;
  if (!observer) return;
  if (changes.attempts !== undefined && (outcome === 'delivered' || outcome === 'failed' || outcome === 'dead')) {
    const status = changes.lastStatusCode === undefined || changes.lastStatusCode === 0 ? undefined : changes.lastStatusCode;
    observer.attempted(outcome === 'failed' ? 'retry' : outcome, status, changes.lastLatencyMs ?? 0);
  }
  if (outcome === 'dead' && deadReason) observer.dead(deadReason);
}

/** Failed calls are always logged with hook id, URL origin and reason; never tokens, secrets or bodies. */
function logFailure(deps: Deps, hook: OutgoingHook, delivery: Delivery, reason: string): void {
  let origin = '';
  try {
    origin = new URL(delivery.url).origin;
  } catch {
    origin = 'invalid-url';
  }
  deps.logger.warn('outgoing webhook call failed', { hook_id: hook.id, delivery_id: delivery.id, origin, reason, attempt: delivery.attempts + 1 });
}
