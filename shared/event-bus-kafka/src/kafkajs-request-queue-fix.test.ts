import { createRequire } from 'node:module';
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installRequestQueueFix } from './kafkajs-request-queue-fix';

interface RequestEntry {
  readonly correlationId: number;
  readonly apiName: string;
  readonly apiVersion: number;
  readonly apiKey: number;
  resolve(): void;
  reject(): void;
}

interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  push(request: { entry: RequestEntry; expectResponse: boolean; sendRequest(): void }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  destroy(): void;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const made: RequestQueue[] = [];

/** kafkajs' own RequestQueue (the class one broker connection uses), with the fix installed. */
function requestQueue(maxInFlightRequests: number | null = null): RequestQueue {
  assert.equal(installRequestQueueFix(), true);
  const fromKafkajs = createRequire(require.resolve('kafkajs'));
  const RequestQueueClass = fromKafkajs('./src/network/requestQueue/index.js') as new (options: object) => RequestQueue;
  const queue = new RequestQueueClass({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:9092', logger: silent });
  made.push(queue);
  return queue;
}

function request(correlationId: number, sent: number[]): Parameters<RequestQueue['push']>[0] {
  return { entry: { correlationId, apiName: 'Fetch', apiVersion: 11, apiKey: 1, resolve: () => undefined, reject: () => undefined }, expectResponse: true, sendRequest: () => void sent.push(correlationId) };
}

describe('kafkajs request-queue fix', () => {
  // Clears each queue's timer, also after a failed assertion (an unfixed queue would keep the test alive).
  afterEach(() => {
    for (const queue of made.splice(0)) queue.destroy();
  });

  it('when a connection has nothing queued and no throttle, then checking its queue arms no timer', () => {
    const queue = requestQueue();
    queue.checkPendingRequests(); // what every answer from the broker does (fulfillRequest)
    assert.equal(queue.throttleCheckTimeoutId, null);
  });

  it('when the broker throttles with nothing queued, then the end of the throttle is still timed', () => {
    const queue = requestQueue();
    queue.throttledUntil = Date.now() + 5_000;
    queue.checkPendingRequests();
    assert.notEqual(queue.throttleCheckTimeoutId, null);
  });

  it('when a request is queued behind a throttle, then it is sent once the throttle ends', async () => {
    const queue = requestQueue();
    const sent: number[] = [];
    queue.throttledUntil = Date.now() + 30;
    queue.push(request(1, sent));
    assert.deepEqual(sent, []);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(sent, [1]);
    assert.equal(queue.throttleCheckTimeoutId, null, 'nothing left queued: no timer re-armed');
  });

  it('when a request waits behind the in-flight limit, then it is sent after the one in flight (and not before)', () => {
    const queue = requestQueue(1);
    const sent: number[] = [];
    queue.push(request(1, sent));
    queue.push(request(2, sent));
    assert.deepEqual(sent, [1]);
    assert.notEqual(queue.throttleCheckTimeoutId, null, 'a queued request keeps its periodic check');
    queue.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    assert.deepEqual(sent, [1, 2]);
  });
});
