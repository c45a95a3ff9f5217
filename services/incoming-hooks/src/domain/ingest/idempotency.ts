import type { StoredResponse } from '../entities';
import { Errors } from '../errors';
import { RELEASED_OWNER, type Deps } from '../ports';

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request still in flight before answering 409. */
const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 25;

/**
 * Runs `run` once per (hook, key) within the window: the key is reserved before anything is published,
 * so concurrent duplicates never both post; later requests get the first answer replayed. A thrown
 * error (5xx) releases the key so a retry may try again; `run` gets the first try's reservation time,
 * the same on every retry, so a retry can name what the first try made (see retryIds).
 */
export async function withIdempotency(deps: Pick<Deps, 'idempotency' | 'clock' | 'ids'>, hookId: string, key: string, run: (since: number) => Promise<StoredResponse>): Promise<StoredResponse> {
  const owner = deps.ids.newId();
  const now = deps.clock.now();
  const reserved = await deps.idempotency.reserve({ hookId, key, owner, createAt: now }, now - IDEMPOTENCY_WINDOW_MS);
  if (reserved.kind === 'existing') {
    if (reserved.record.response) return reserved.record.response;
    return waitForFirst(deps, hookId, key);
  }
  let response: StoredResponse;
  try {
    response = await run(reserved.since);
  } catch (error) {
    await deps.idempotency.release(hookId, key, owner).catch(() => undefined);
    throw error;
  }
  await deps.idempotency.complete(hookId, key, owner, response);
  return response;
}

async function waitForFirst(deps: Pick<Deps, 'idempotency'>, hookId: string, key: string): Promise<StoredResponse> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const record = await deps.idempotency.find(hookId, key);
    if (!record || record.owner === RELEASED_OWNER) break;
    if (record.response) return record.response;
  }
  throw Errors.idempotencyInFlight();
}
