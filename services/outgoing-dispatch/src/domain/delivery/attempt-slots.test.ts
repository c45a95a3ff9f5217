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

  it('when a larger reservation waits, then a later smaller one does not overtake it, and neither waits for ever', async () => {
    const slots = new AttemptSlots(4);
    const held = await slots.reserve(3);
    const tasks = [gate(), gate(), gate()];
    for (const t of tasks) held.run(t.task);
    const order: string[] = [];
    const big = slots.reserve(3).then((r) => (order.push('big'), r));
    const small = slots.reserve(1).then((r) => (order.push('small'), r));
    await tick();
    assert.deepEqual(order, [], 'one slot free: the big one waits whole, the small one waits behind it');
    tasks[0]?.finish();
    tasks[1]?.finish();
    const bigReservation = await big;
    assert.deepEqual(order, ['big']);
    bigReservation.release();
    (await small).release();
    assert.deepEqual(order, ['big', 'small']);
    tasks[2]?.finish();
    await slots.drain();
  });

  it('when more is asked than the capacity, then the capacity is reserved (firing reserves chunk by chunk)', async () => {
    const slots = new AttemptSlots(3);
    const reservation = await slots.reserve(10);
    assert.equal(reservation.size, 3);
    reservation.release();
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
