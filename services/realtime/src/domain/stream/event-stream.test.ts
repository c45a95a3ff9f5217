import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BusMessage } from '@switchyard/event-bus';
import { ManualClock } from '../../test-support/fakes';
import { EventStream } from './event-stream';

const msg = (topic: string, partition: number, offset: number): BusMessage => ({ topic, partition, offset: String(offset), key: 'k', value: { n: offset }, headers: {}, attempt: 1 });

function stream(maxRecords = 3, maxAgeMs = 0): { s: EventStream; clock: ManualClock } {
  const clock = new ManualClock();
  const s = new EventStream(['a', 'b'], { clock, maxRecords, maxAgeMs });
  s.start([
    { topic: 'a', partition: 0, offset: '10' },
    { topic: 'a', partition: 1, offset: '0' },
    { topic: 'b', partition: 0, offset: '4' },
  ]);
  return { s, clock };
}

describe('event stream', () => {
  it('when records are handled, then the position moves past them and a redelivered one is not new', () => {
    const { s } = stream();
    assert.deepEqual(s.position().offsets, [[10, 0], [4]]);
    assert.equal(s.fresh(msg('a', 0, 10)), true);
    assert.ok(s.handled(msg('a', 0, 10), 5));
    assert.ok(s.handled(msg('b', 0, 4), 6));
    assert.deepEqual(s.position().offsets, [[11, 0], [5]]);
    assert.equal(s.fresh(msg('a', 0, 10)), false);
    assert.equal(s.handled(msg('a', 0, 10), 7), undefined);
    assert.deepEqual(s.since(0).map((r) => [r.topic, r.partition, r.offset]), [[0, 0, 10], [1, 0, 4]]);
  });

  it('when a position is at or past every partition and nothing is in delivery, then the stream is caught up with it', () => {
    const { s } = stream(10);
    const now = s.position();
    assert.equal(s.caughtUp(now), true);
    assert.equal(s.caughtUp({ time: 0, offsets: [[11, 0], [4]] }), true, 'past it (another replica further along)');
    s.delivering(msg('a', 1, 0), 6);
    assert.equal(s.caughtUp(now), false, 'a record in delivery is not behind the position yet');
    assert.ok(s.handled(msg('a', 1, 0), 6));
    assert.equal(s.caughtUp(now), false, 'a record after it');
    assert.equal(s.caughtUp(s.position()), true);
    assert.equal(s.caughtUp({ time: 0, offsets: [[10, 1]] }), false, 'not a position of these topics');
  });

  it('when a record is being delivered, then a snapshot includes it and is past it, until it is handled and kept once', () => {
    const { s } = stream(10);
    assert.ok(s.handled(msg('a', 0, 10), 5));
    const eleven = msg('a', 0, 11);
    const delivering = s.delivering(eleven, 6);
    assert.equal(s.delivering(msg('a', 0, 3), 6), undefined, 'below the position: a redelivery, never in flight');
    const during = s.snapshot();
    assert.deepEqual(during.records.map((r) => [r.topic, r.partition, r.offset]), [[0, 0, 10], [0, 0, 11]]);
    assert.deepEqual(during.position.offsets, [[12, 0], [4]]);
    assert.deepEqual(s.position().offsets, [[11, 0], [4]], 'the stream itself moves only when it is handled');
    assert.equal(during.records[1], delivering);
    const kept = s.handled(eleven, 6);
    // Kept in its compact form: the same place and time as when its delivery began, the message read back from its JSON.
    assert.deepEqual(kept && [kept.serial, kept.topic, kept.partition, kept.offset, kept.time], [1, 0, 0, 11, delivering?.time]);
    assert.deepEqual(kept?.message, { ...eleven, headers: {}, attempt: 1 });
    assert.notEqual(kept?.message.value, eleven.value, 'a copy parsed from the kept JSON, not the live value');
    const after = s.snapshot();
    assert.deepEqual(after.records.map((r) => r.offset), [10, 11]);
    assert.equal(after.records[1], kept, 'kept once');
    assert.deepEqual(after.position.offsets, [[12, 0], [4]]);
  });

  it('when the oldest records go, then a cursor before them is expired and one after is complete', () => {
    const { s } = stream(2);
    const start = s.position();
    assert.equal(s.coverage(start), 'complete');
    for (const offset of [10, 11, 12]) s.handled(msg('a', 0, offset), 1);
    // 10 went (two kept): a cursor asking for a:0 from 10 lost it; from 11 on is complete.
    assert.equal(s.coverage(start), 'expired');
    assert.equal(s.coverage({ time: start.time, offsets: [[11, 0], [4]] }), 'complete');
    assert.equal(s.coverage({ time: start.time, offsets: [[11, 0], [3]] }), 'expired');
    assert.deepEqual(s.since(s.oldestSerial).map((r) => r.offset), [11, 12]);
  });

  it('when the records kept outgrow maxBytes, then the oldest go (whatever their count) and a cursor before them is expired', () => {
    const clock = new ManualClock();
    const s = new EventStream(['a', 'b'], { clock, maxRecords: 100, maxBytes: 3 * 1_000 + 3 * 160, maxAgeMs: 0 });
    s.start([{ topic: 'a', partition: 0, offset: '10' }, { topic: 'b', partition: 0, offset: '0' }]);
    const start = s.position();
    const sized = (offset: number, chars: number): BusMessage => ({ ...msg('a', 0, offset), value: { text: 'x'.repeat(chars - 11) } });
    for (const offset of [10, 11, 12]) s.handled(sized(offset, 1_000), 1);
    assert.deepEqual(s.held, { records: 3, bytes: 3 * 1_160 }, 'each: its JSON text (1,000 characters) and the fixed part');
    assert.equal(s.coverage(start), 'complete');
    s.handled(sized(13, 2_000), 1);
    // 13 is twice as large: 10 and 11 went to make room for it.
    assert.deepEqual(s.since(s.oldestSerial).map((r) => r.offset), [12, 13]);
    assert.deepEqual(s.held, { records: 2, bytes: 1_160 + 2_160 });
    assert.equal(s.coverage(start), 'expired');
    assert.equal(s.coverage({ time: start.time, offsets: [[12], [0]] }), 'complete');
    assert.equal((s.since(s.oldestSerial)[1]?.message.value as { text: string }).text.length, 2_000 - 11, 'read back whole');
  });

  it('when records go, then nothing keeps them reachable (their memory is freed before the array is compacted)', async () => {
    const clock = new ManualClock();
    const s = new EventStream(['a', 'b'], { clock, maxRecords: 100, maxAgeMs: 0 });
    s.start([{ topic: 'a', partition: 0, offset: '0' }, { topic: 'b', partition: 0, offset: '0' }]);
    const gone: WeakRef<object>[] = [];
    // 300 handled, 100 kept: 200 went (too few for the array to be compacted).
    for (let offset = 0; offset < 300; offset += 1) {
      const record = s.handled(msg('a', 0, offset), 1);
      if (record && offset < 200) gone.push(new WeakRef(record));
    }
    assert.deepEqual(s.held.records, 100);
    // WeakRefs are cleared only after the job that made them: a full collection in the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    assert.equal(gone.filter((ref) => ref.deref() !== undefined).length, 0, 'no record that went is still reachable');
  });

  it('when a cursor has another shape or comes from the future, then it is invalid; older than the age limit, expired', () => {
    const { s, clock } = stream(10, 60_000);
    const now = s.position();
    assert.equal(s.coverage({ time: now.time, offsets: [[10, 0]] }), 'invalid');
    assert.equal(s.coverage({ time: now.time, offsets: [[10, 0, 0], [4]] }), 'invalid');
    assert.equal(s.coverage({ time: now.time + 3_600_000, offsets: now.offsets }), 'invalid');
    clock.time += 60_001;
    assert.equal(s.coverage(now), 'expired');
  });

  it('when a record is handled, then waiters are woken until they stop', () => {
    const { s } = stream();
    let woken = 0;
    const stop = s.onRecord(() => (woken += 1));
    s.handled(msg('a', 1, 0), 1);
    stop();
    s.handled(msg('a', 1, 1), 1);
    assert.equal(woken, 1);
  });
});
