import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DLQ_HEADERS,
  MAX_REASON_LENGTH,
  deadLetterHeaders,
  decodeHeaders,
  decodeValue,
  encodeValue,
  errorMessage,
  nextOffset,
  retryDelay,
  withEventType,
} from './codec';

describe('codec', () => {
  it('when a value is encoded and decoded, then the same JSON value comes back', () => {
    const value = { a: 1, b: ['x', null], c: { d: true }, text: 'é ✓' };
    const decoded = decodeValue(Buffer.from(encodeValue(value), 'utf8'));
    assert.deepEqual(decoded, { ok: true, value, json: encodeValue(value) });
  });

  it('when the value is undefined, then it is encoded as null', () => {
    assert.equal(encodeValue(undefined), 'null');
  });

  it('when the record is a tombstone, then the value is null', () => {
    assert.deepEqual(decodeValue(null), { ok: true, value: null, json: 'null' });
  });

  it('when a value has a string type (an envelope), then its headers get it as event-type, unless they set one', () => {
    assert.deepEqual(withEventType({ traceparent: 'x' }, { id: '1', type: 'post.created', payload: {} }), { traceparent: 'x', 'event-type': 'post.created' });
    assert.deepEqual(withEventType({ 'event-type': 'mine' }, { type: 'post.created' }), { 'event-type': 'mine' });
    for (const value of [null, 'text', 3, [1], { type: 7 }, { payload: {} }]) assert.deepEqual(withEventType({}, value), {}, JSON.stringify(value));
  });

  it('when the bytes are not JSON, then decoding says why instead of throwing', () => {
    const decoded = decodeValue(Buffer.from('{not json'));
    assert.equal(decoded.ok, false);
    assert.match(decoded.ok ? '' : decoded.reason, /^value is not JSON: /);
  });

  it('when headers are buffers, strings, repeated or missing, then they become one string each', () => {
    const headers = decodeHeaders({
      buf: Buffer.from('bytes ✓'),
      str: 'plain',
      repeated: [Buffer.from('first'), 'last'],
      missing: undefined,
    });
    assert.deepEqual(headers, { buf: 'bytes ✓', str: 'plain', repeated: 'last' });
    assert.deepEqual(decodeHeaders(undefined), {});
  });

  it('when an offset is past 2^53, then the next offset is still exact', () => {
    assert.equal(nextOffset('0'), '1');
    assert.equal(nextOffset('41'), '42');
    assert.equal(nextOffset('9007199254740993'), '9007199254740994');
  });

  it('when attempts grow, then the retry delay grows linearly up to the cap', () => {
    assert.deepEqual([1, 2, 3, 10, 100].map((a) => retryDelay(a, 100, 1000)), [100, 200, 300, 1000, 1000]);
    assert.equal(retryDelay(0, 100, 1000), 100);
    assert.equal(retryDelay(5, 0, 1000), 0);
  });

  it('when a message is dead-lettered, then its headers keep the original ones and say where and why', () => {
    const headers = deadLetterHeaders(
      { traceparent: '00-abc-def-01', 'x-test': 'yes' },
      { reason: new Error('poison'), groupId: 'g1', topic: 'posts.events', partition: 2, offset: '17', attempts: 5 },
    );
    assert.deepEqual(headers, {
      traceparent: '00-abc-def-01',
      'x-test': 'yes',
      [DLQ_HEADERS.reason]: 'poison',
      [DLQ_HEADERS.group]: 'g1',
      [DLQ_HEADERS.topic]: 'posts.events',
      [DLQ_HEADERS.partition]: '2',
      [DLQ_HEADERS.offset]: '17',
      [DLQ_HEADERS.attempts]: '5',
    });
  });

  it('when the failure reason is very long, then the header is truncated', () => {
    const headers = deadLetterHeaders({}, { reason: 'x'.repeat(5000), groupId: 'g', topic: 't', partition: 0, offset: '0', attempts: 1 });
    assert.equal(headers[DLQ_HEADERS.reason]?.length, MAX_REASON_LENGTH);
    assert.ok(headers[DLQ_HEADERS.reason]?.endsWith('…'));
  });

  it('when something other than an Error is thrown, then its message is still readable', () => {
    assert.equal(errorMessage(new Error('boom')), 'boom');
    assert.equal(errorMessage('text'), 'text');
    assert.equal(errorMessage({ code: 7 }), '{"code":7}');
    assert.equal(errorMessage(undefined), 'undefined');
  });
});
