import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { validate } from '@switchyard/validation';
import { createPostBodyOf, plainCreatePostBody } from './create-post-body';
import { createPostBody } from './posts.schemas';

const ID = 'abcdefghijklmnopqrstuvwxyz';

/** Bodies around every rule of createPostBody: accepted ones, and ones at or past each limit. */
const BODIES: unknown[] = [
  {},
  { channel_id: ID, message: 'hello' },
  { channel_id: ID, message: '', type: '', props: null, root_id: '', file_ids: null, pending_post_id: '' },
  { channel_id: ID, message: 'x', props: { a: 1, attachments: [{ text: 't' }] }, file_ids: ['f1', 'f2'], pending_post_id: 'p', root_id: ID, create_at: 0 },
  { channel_id: ID, message: 'x', create_at: 1_700_000_000_000, extra: 'stripped', user_id: 'ignored' },
  { channel_id: 'c'.repeat(256) },
  { channel_id: 'c'.repeat(257) },
  { type: 't'.repeat(200) },
  { type: 't'.repeat(201) },
  { root_id: 'r'.repeat(64) },
  { root_id: 'r'.repeat(65) },
  { pending_post_id: 'p'.repeat(100) },
  { pending_post_id: 'p'.repeat(101) },
  { message: 'm'.repeat(20_000) },
  { file_ids: Array.from({ length: 100 }, (_, i) => `f${i}`) },
  { file_ids: Array.from({ length: 101 }, (_, i) => `f${i}`) },
  { file_ids: [''] },
  { file_ids: ['f'.repeat(64)] },
  { file_ids: ['f'.repeat(65)] },
  { file_ids: [1] },
  { file_ids: 'f1' },
  { props: [] },
  { props: 'x' },
  { props: 1 },
  { channel_id: null },
  { channel_id: 5 },
  { message: null },
  { message: { $gt: '' } },
  { message: ['a'] },
  { type: false },
  { root_id: null },
  { pending_post_id: 7 },
  { create_at: -1 },
  { create_at: 1.5 },
  { create_at: 2 ** 60 },
  { create_at: '5' },
  { create_at: null },
  { metadata: null },
  { metadata: { priority: { priority: 'urgent' } } },
  { metadata: { priority: { priority: 'loud' } } },
  [],
  null,
  'text',
  42,
];

function joiOutcome(body: unknown): { value?: unknown; error?: string } {
  try {
    return { value: validate(createPostBody, body) };
  } catch (error) {
    return { error: isAppError(error) ? error.id : String(error) };
  }
}

describe('POST /api/v4/posts body without joi', () => {
  it('when a body is accepted without joi, then joi accepts it too with the same value; everything else is left to joi', () => {
    let plain = 0;
    for (const body of BODIES) {
      const fast = plainCreatePostBody(body);
      const joi = joiOutcome(body);
      if (fast === undefined) continue;
      plain += 1;
      assert.equal(joi.error, undefined, `joi refuses ${JSON.stringify(body)?.slice(0, 80)} that the plain check accepted`);
      assert.deepEqual(fast, joi.value, JSON.stringify(body)?.slice(0, 80));
    }
    assert.ok(plain >= 8, `the plain check took ${plain} of the bodies`);
  });

  it('when a body breaks a rule, then createPostBodyOf answers joi\'s 400 naming the key', () => {
    for (const body of BODIES) {
      const joi = joiOutcome(body);
      if (joi.error === undefined) {
        assert.deepEqual(createPostBodyOf(body), joi.value);
        continue;
      }
      assert.throws(() => createPostBodyOf(body), (error: unknown) => isAppError(error) && error.id === joi.error && error.statusCode === 400);
    }
  });

  it('when the typical client body comes in, then it takes the plain path', () => {
    assert.deepEqual(plainCreatePostBody({ channel_id: ID, message: 'deploy #42 finished', pending_post_id: 'abc:1' }), {
      channel_id: ID,
      message: 'deploy #42 finished',
      type: '',
      props: {},
      root_id: '',
      file_ids: [],
      pending_post_id: 'abc:1',
    });
  });
});
