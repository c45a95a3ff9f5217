import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPostCommandPayloadSchema, envelopeSchema } from '@switchyard/contracts';
import { plainPostCreateCommand } from './plain-post-command';

const ID = 'abcdefghijklmnopqrstuvwxyz';
const post = { id: ID, channel_id: ID, user_id: ID, message: 'Build #42 passed', type: '', props: { from_webhook: 'true' }, root_id: '', create_at: 1_700_000_000_000 };
const payload = { post, source: 'incoming_webhook', hook_id: ID, request_id: 'r-1' };
const envelope = { id: ID, type: 'post.create', version: 1, time: 1_700_000_000_000, payload };

const withPost = (changes: Record<string, unknown>): unknown => ({ ...envelope, payload: { ...payload, post: { ...post, ...changes } } });
const withPayload = (changes: Record<string, unknown>): unknown => ({ ...envelope, payload: { ...payload, ...changes } });
const without = (key: string): unknown => {
  const copy: Record<string, unknown> = { ...post };
  delete copy[key];
  return { ...envelope, payload: { ...payload, post: copy } };
};

/** Messages around every rule of envelopeSchema and createPostCommandPayloadSchema. */
const MESSAGES: unknown[] = [
  envelope,
  { ...envelope, extra: 1 },
  withPayload({ extra: 'kept' }),
  withPayload({ hook_id: undefined, request_id: undefined }),
  withPayload({ request_id: '' }),
  withPayload({ hook_id: '' }),
  withPayload({ hook_id: null }),
  withPayload({ source: 'api' }),
  withPayload({ source: 'elsewhere' }),
  withPayload({ post: null }),
  withPost({ priority: { priority: 'urgent', anything: true } }),
  withPost({ priority: 'urgent' }),
  withPost({ create_at: 0 }),
  withPost({ create_at: -1 }),
  withPost({ create_at: 1.5 }),
  withPost({ create_at: 2 ** 60 }),
  withPost({ create_at: '5' }),
  without('create_at'),
  without('props'),
  without('root_id'),
  without('message'),
  withPost({ id: `${ID}x` }),
  withPost({ id: ID.slice(1) }),
  withPost({ channel_id: '' }),
  withPost({ user_id: 7 }),
  withPost({ message: '' }),
  withPost({ message: null }),
  withPost({ type: 'slack_attachment' }),
  withPost({ props: [] }),
  withPost({ props: null }),
  withPost({ root_id: ID }),
  withPost({ file_ids: [] }),
  withPost({ file_ids: [ID, ID.replace(/^./, 'b')] }),
  withPost({ file_ids: ['short'] }),
  withPost({ file_ids: Array.from({ length: 11 }, () => ID) }),
  withPost({ file_ids: ID }),
  { ...envelope, type: 'post.delete' },
  { ...envelope, type: '' },
  { ...envelope, id: '' },
  { ...envelope, id: 'i'.repeat(65) },
  { ...envelope, version: 0 },
  { ...envelope, time: -1 },
  { ...envelope, payload: null },
  { id: ID, type: 'post.create', version: 1, time: 1 },
  null,
  [],
  'post.create',
];

function joiAccepts(message: unknown): unknown {
  const checked = envelopeSchema.validate(message, { allowUnknown: true });
  if (checked.error) return undefined;
  const value = checked.value as { type: string; payload: unknown };
  if (value.type !== 'post.create') return undefined;
  const command = createPostCommandPayloadSchema.validate(value.payload, { convert: false });
  return command.error ? undefined : command.value;
}

describe('posts.commands post.create without joi', () => {
  it('when a command is accepted without joi, then the contract schemas accept it with the same value', () => {
    let plain = 0;
    for (const message of MESSAGES) {
      const fast = plainPostCreateCommand(message);
      if (fast === undefined) continue;
      plain += 1;
      const joi = joiAccepts(message);
      assert.notEqual(joi, undefined, `joi refuses ${JSON.stringify(message)?.slice(0, 120)}`);
      assert.deepEqual(fast, joi);
    }
    assert.ok(plain >= 10, `the plain check took ${plain} of the messages`);
  });

  it('when a producer sends what incoming-hooks sends, then it takes the plain path', () => {
    assert.equal(plainPostCreateCommand(envelope), payload);
  });
});
