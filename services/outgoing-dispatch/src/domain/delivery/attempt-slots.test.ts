import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptSlots } from './attempt-slots';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A task that runs until `finish()` is called. */
function gate(): { task: () => Promise<void>; finish: () => void } {
  let finish = (): void => undefined;
  const done = new Promise<void>((r) => (finish = r));
  return { task: () => done, finish: () => finish() };
}

describe('AttemptSlots (attempts one instance runs at once)', () => {
  it('when the slots are taken, then a reservation waits until tasks finish, and unused slots go back on release', async () => {
    const slots = new AttemptSlots(2);
    const first = await slots.reserve(2);
    const [t1, t2] = [gate(), gate()];
    assert.equal(first.run(t1.task), true);
    assert.equal(first.run(t2.task), true);
    assert.equal(first.run(async () => undefined), false, 'no third slot in a reservation of two');
    let granted = false;
    const waiting = slots.reserve(1).then((r) => {
      granted = true;
      return r;
    });
    await tick();
    assert.equal(granted, false, 'both slots run a task');
    t1.finish();
    const second = await waiting;
    assert.equal(second.size, 1);
    second.release();
    const third = await slots.reserve(1);
    assert.equal(third.size, 1, 'the unused slot came back');
    third.release();
    t2.finish();
    await slots.drain();
  });

  it('when fewer slots are free than asked, then the reservation gets those at once, and waiters are served in arrival order', async () => {
    const slots = new AttemptSlots(4);
    const held = await slots.reserve(3);
    const tasks = [gate(), gate(), gate()];
    for (const t of tasks) held.run(t.task);
    const partial = await slots.reserve(3);
    assert.equal(partial.size, 1, 'one slot was free: granted without waiting for more');
    const t4 = gate();
    partial.run(t4.task);
    const order: string[] = [];
    const first = slots.reserve(2).then((r) => (order.push(`first:${r.size}`), r));
    const second = slots.reserve(1).then((r) => (order.push(`second:${r.size}`), r));
    await tick();
    assert.deepEqual(order, [], 'nothing free: both wait');
    tasks[0]?.finish();
    const firstReservation = await first;
    await tick();
    assert.deepEqual(order, ['first:1'], 'the first waiter gets the one freed slot; the later one keeps waiting');
    tasks[1]?.finish();
    (await second).release();
    assert.deepEqual(order, ['first:1', 'second:1']);
    firstReservation.release();
    tasks[2]?.finish();
    t4.finish();
    await slots.drain();
  });

  it('when more is asked than the capacity, then at most the capacity is reserved (firing asks again for the rest)', async () => {
    const slots = new AttemptSlots(3);
    const reservation = await slots.reserve(10);
    assert.equal(reservation.size, 3);
    reservation.release();
    assert.equal((await slots.reserve(0)).size, 0);
  });

  it('when attempts run, then drain resolves only after the last one settled, failed ones included', async () => {
    const slots = new AttemptSlots(2);
    const reservation = await slots.reserve(2);
    const slow = gate();
    let finished = false;
    reservation.run(async () => {
      await slow.task();
      finished = true;
    });
    reservation.run(async () => {
      throw new Error('boom');
    });
    const draining = slots.drain();
    await tick();
    assert.equal(finished, false);
    slow.finish();
    await draining;
    assert.equal(finished, true);
    (await slots.reserve(2)).release();
  });
});
