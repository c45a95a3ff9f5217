import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';

/** How long a test waits for the bus to hand a message over; generous, since a passing test never waits it out. */
export const UNTIL_MS = 10_000;

/** Polls until `check` holds (the bus hands messages over asynchronously); fails after a deadline, not after a count. */
export async function until(check: () => Promise<boolean>, what = 'condition', ms = UNTIL_MS): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await check()) return;
    await delay(5);
  }
  assert.fail(`${what} not reached within ${ms} ms`);
}
