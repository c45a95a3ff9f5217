import { it } from 'node:test';
import assert from 'node:assert/strict';
import { withTopic } from './message-topic';
import type { BusMessage } from './ports';

it('when a message is renamed to another topic, then its value is not read until asked, and then it is the original\'s', () => {
  let reads = 0;
  const original: BusMessage = {
    topic: 'ns.posts.events', partition: 1, offset: '9', key: 'c1', headers: { h: 'v' }, attempt: 2,
    get value(): unknown {
      reads += 1;
      return { type: 'post.created' };
    },
    json: '{"type":"post.created"}',
  };
  const renamed = withTopic(original, 'posts.events');
  assert.deepEqual([renamed.topic, renamed.partition, renamed.offset, renamed.key, renamed.headers, renamed.attempt], ['posts.events', 1, '9', 'c1', { h: 'v' }, 2]);
  assert.equal(reads, 0);
  assert.deepEqual(renamed.value, { type: 'post.created' });
  assert.equal(renamed.json, '{"type":"post.created"}');
  assert.equal(reads, 1);
});
