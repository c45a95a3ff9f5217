import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4's RequestQueue (one per broker connection) re-arms a timer after every check of its
 * queue, also when nothing is queued and nothing throttled: `throttledUntil - Date.now()` is negative, so
 * it is a 1 ms timer, forever (tulios/kafkajs#1556, #1704; fixes #1667/#1768 never released). Every
 * connection of every consumer, producer and admin spins at ~1,000 wakes a second for nothing; measured
 * here it was most of an idle service's CPU. This replaces the method with the same logic minus the
 * useless timer: a queued request is still checked again (at the end of a throttle, or every 10 ms while
 * it waits behind the in-flight limit, as before), a throttle without queued requests still arms its timer.
 */

/** The RequestQueue fields the replacement reads and writes (kafkajs' own names). */
export interface RequestQueueState {
  readonly pending: readonly unknown[];
  readonly throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
}

/** kafkajs' CHECK_PENDING_REQUESTS_INTERVAL: how often a request queued behind the in-flight limit is looked at. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/** The kafkajs version whose RequestQueue this replaces (package.json pins it). */
const FIXED_VERSION = '2.2.4';

const installed = Symbol.for('switchyard.kafkajs.requestQueueFix');

/** kafkajs' `scheduleCheckPendingRequests`, without a timer when there is nothing queued and no throttle. */
export function scheduleCheckPendingRequests(this: RequestQueueState): void {
  if (this.throttleCheckTimeoutId) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  let delayMs: number;
  if (this.pending.length > 0) delayMs = untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (untilUnthrottled > 0) delayMs = untilUnthrottled;
  else return; // nothing to send, nothing to wait for: push() schedules again when a request is queued
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delayMs);
}

interface RequestQueuePrototype {
  scheduleCheckPendingRequests: (this: RequestQueueState) => void;
  [installed]?: true;
}

/**
 * Installs the replacement on the kafkajs copy this package loads (idempotent). Returns false, leaving
 * kafkajs alone, when that is not the version it was written for.
 */
export function installRequestQueueFix(): boolean {
  const fromKafkajs = createRequire(require.resolve('kafkajs'));
  const { version } = fromKafkajs('./package.json') as { version: string };
  if (version !== FIXED_VERSION) return false;
  const RequestQueue = fromKafkajs('./src/network/requestQueue/index.js') as { prototype: RequestQueuePrototype };
  const proto = RequestQueue.prototype;
  if (proto[installed]) return true;
  proto.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  proto[installed] = true;
  return true;
}
