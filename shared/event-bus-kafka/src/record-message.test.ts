import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordDelivery } from './record-message';

const fields = { topic: 't', partition: 2, offset: '7', key: 'k', headers: { 'event-type': 'post.created' }, attempt: 1 };

/** A value whose parse is observable: JSON.parse of its text is counted while `run` runs. */
function countingParses<T>(run: () => T): { result: T; parses: number } {
  const original = JSON.parse;
  let parses = 0;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    parses += 1;
    return original(text, reviver);
  }) as typeof JSON.parse;
  try {
    return { result: run(), parses };
  } finally {
    JSON.parse = original;
  }
}

describe('recordDelivery', () => {
  it('when the handler reads only the key and headers, then the value is never parsed', () => {
    const { parses } = countingParses(() => {
      const { message } = recordDelivery(fields, Buffer.from('{"type":"post.created","payload":{}}'));
      return [message.key, message.headers['event-type'], message.offset, message.attempt];
    });
    assert.equal(parses, 0);
  });

  it('when value and json are read several times, then the value is parsed once and json is its text', () => {
    const text = '{"type":"post.created","payload":{"n":1}}';
    const { result, parses } = countingParses(() => {
      const { message } = recordDelivery(fields, Buffer.from(text));
      return { value: message.value, again: message.value, json: message.json };
    });
    assert.equal(parses, 1);
    assert.deepEqual(result.value, { type: 'post.created', payload: { n: 1 } });
    assert.equal(result.again, result.value);
    assert.equal(result.json, text);
  });

  it('when the message is spread, then the copy has the decoded value (own getters, not lost)', () => {
    const { message } = recordDelivery(fields, Buffer.from('{"n":2}'));
    assert.deepEqual({ ...message, topic: 'other' }.value, { n: 2 });
  });

  it('when the value is a tombstone, then it reads as null', () => {
    const delivery = recordDelivery(fields, null);
    assert.equal(delivery.message.value, null);
    assert.equal(delivery.message.json, 'null');
    assert.equal(delivery.undecodable(), undefined);
  });

  it('when the value is not JSON, then undecodable says nothing until a read, and the read throws the reason it then reports', () => {
    const delivery = recordDelivery(fields, Buffer.from('{not json'));
    assert.equal(delivery.undecodable(), undefined, 'never read: the handler may skip it by its headers');
    assert.throws(() => delivery.message.value, /^Error: value is not JSON: /);
    assert.throws(() => delivery.message.json, /^Error: value is not JSON: /);
    assert.match(delivery.undecodable() ?? '', /^value is not JSON: /);
  });

  it('when decode is asked before the handler, then it reports an undecodable value without a read', () => {
    assert.match(recordDelivery(fields, Buffer.from('nope')).decode() ?? '', /^value is not JSON: /);
    assert.equal(recordDelivery(fields, Buffer.from('[1]')).decode(), undefined);
  });

  it('when the delivery is released before the value was read, then the message no longer reads the fetched bytes (a copy), and still decodes the same value', () => {
    const fetched = Buffer.from('xx{"n":3}yy');
    const view = fetched.subarray(2, 9);
    const delivery = recordDelivery(fields, view);
    delivery.release();
    fetched.fill(0x20);
    assert.deepEqual(delivery.message.value, { n: 3 });
    assert.equal(delivery.message.json, '{"n":3}');
  });
});
