import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPE_HEADER, eventTypeOf } from './event-type';
import type { BusMessage } from './ports';

function message(headers: Record<string, string>, value: () => unknown): BusMessage & { reads: number } {
  const m = {
    topic: 't', partition: 0, offset: '0', key: 'k', headers, attempt: 1, reads: 0,
    get value(): unknown {
      m.reads += 1;
      return value();
    },
  };
  return m;
}

describe('eventTypeOf', () => {
  it('when the bus wrote the event-type header, then the type comes from it without reading the value', () => {
    const m = message({ [EVENT_TYPE_HEADER]: 'reaction.added' }, () => {
      throw new Error('not to be read');
    });
    assert.equal(eventTypeOf(m), 'reaction.added');
    assert.equal(m.reads, 0);
  });

  it('when there is no header (an older message, the in-process bus), then the type is the value\'s', () => {
    assert.equal(eventTypeOf(message({}, () => ({ type: 'post.created', payload: {} }))), 'post.created');
    assert.equal(eventTypeOf(message({}, () => ({ type: 3 }))), undefined);
    assert.equal(eventTypeOf(message({}, () => null)), undefined);
  });
});
