import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_STREAM_TOPICS as CONSUMED_TOPICS, Topics } from '@switchyard/contracts';
import { ManualClock } from '../../test-support/fakes';
import { ArchiveLog } from '../../test-support/stream-setup';
import { EventStream } from './event-stream';
import { recordsAfter } from './history';

const KEYS = ['c1', 'c2', 'c1', 'c2', 'c2', 'c2'];

/** A replica that started after offsets 0-5 of posts.events (it holds none of them) and a cursor from before them. */
function world() {
  const log = new ArchiveLog();
  KEYS.forEach((key, offset) => log.messages.push({ topic: Topics.postsEvents, partition: 0, offset: String(offset), key, value: { type: 'post.created', payload: {}, time: 100 + offset }, headers: {}, attempt: 1 }));
  const stream = new EventStream(CONSUMED_TOPICS, { clock: new ManualClock(), maxRecords: 100, maxAgeMs: 3_600_000 });
  stream.start(CONSUMED_TOPICS.map((topic) => ({ topic, partition: 0, offset: topic === Topics.postsEvents ? String(KEYS.length) : '0' })));
  const from = { time: 50, offsets: CONSUMED_TOPICS.map(() => [0]) };
  return { log, stream, snapshot: stream.snapshot(), from };
}

const skipC2 = (topic: string, key: string): boolean => topic === Topics.postsEvents && key === 'c2';
const shape = (records: readonly { offset: number; message: { key: string; value: unknown } }[]): string[] => records.map((r) => (r.message.value === null ? `marker@${r.offset}` : `${r.message.key}@${r.offset}`));

describe('records after a cursor, read from the log with messages skipped by their key', () => {
  it('when the skipped messages end the range, then a marker (no value) at the last one moves a cursor past them', async () => {
    const { log, stream, snapshot, from } = world();
    const round = await recordsAfter(stream, snapshot, log.source, from, { max: 100, skip: skipC2 });
    assert.deepEqual(shape(round.records), ['c1@0', 'c1@2', 'marker@5']);
    assert.equal(round.complete, true);
    assert.equal(round.scanned, 6);
    assert.equal(log.returned, 2, 'skipped messages are not returned');
    assert.equal(round.records[2]?.time, 102, 'a marker is as late as the last record before it');
  });

  it('when a read stops at its bound of messages looked at, then the marker is at the last one looked at and the round is not complete', async () => {
    const { log, stream, snapshot, from } = world();
    const round = await recordsAfter(stream, snapshot, log.source, from, { max: 3, maxScanned: 4, skip: skipC2 });
    assert.deepEqual(shape(round.records), ['c1@0', 'c1@2', 'marker@3']);
    assert.equal(round.complete, false);
    assert.equal(round.scanned, 4);
  });

  it('when a read stops at its bound of messages returned, then no marker goes past what was not looked at', async () => {
    const { log, stream, snapshot, from } = world();
    const round = await recordsAfter(stream, snapshot, log.source, from, { max: 1, skip: skipC2 });
    assert.deepEqual(shape(round.records), ['c1@0']);
    assert.equal(round.complete, false);
  });

  it('when nothing is skipped, then every message is a record and no marker is added', async () => {
    const { log, stream, snapshot, from } = world();
    const round = await recordsAfter(stream, snapshot, log.source, from, { max: 100 });
    assert.deepEqual(shape(round.records), KEYS.map((k, i) => `${k}@${i}`));
  });
});
