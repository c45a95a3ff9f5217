import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

type Json = Record<string, unknown>;

describe('POST /hooks/{key} acknowledgement (ServiceSettings.IncomingWebhookAckMode)', () => {
  let h: HttpHarness;
  let hook: Json & { id: string };
  before(async () => {
    h = await httpHarness({ storedAckTimeoutMs: 300 });
    hook = await h.createHook();
  });
  after(async () => {
    await h.stop();
  });
  const send = (body: unknown, query = '', headers: Record<string, string> = {}) => h.request('POST', `/hooks/${hook.id}${query}`, { body, headers });
  const useMode = (mode: 'stored' | 'queued') =>
    h.setConfig((c) => {
      c.ServiceSettings.IncomingWebhookAckMode = mode;
    });

  it('when the mode is stored (the default) and a message splits into three posts, then ok comes only once posts stored all three', async () => {
    useMode('stored');
    const text = ['a', 'b', 'c'].map((c) => c.repeat(16_000)).join('\n');
    const answer = await send({ text }, '?wait=true');
    assert.equal(answer.statusCode, 200);
    const ids = (answer.json() as { post_ids: string[] }).post_ids;
    assert.equal(ids.length, 3);
    for (const id of ids) assert.ok(h.posts.stored.has(id), `post ${id} stored before the answer`);
  });

  it('when posts refuses the post in stored mode, then the answer is posts error and not ok', async () => {
    useMode('stored');
    h.posts.refuse = () => ({ id: 'api.post.create_post.can_not_post_to_deleted.error', message: 'Can not post to deleted channel.', status_code: 400 });
    try {
      const answer = await send({ text: 'to an archived channel' });
      assert.equal(answer.statusCode, 400);
      assert.equal((answer.json() as Json).id, 'api.post.create_post.can_not_post_to_deleted.error');
    } finally {
      h.posts.refuse = undefined;
    }
  });

  it('when posts does not answer in time in stored mode, then 503 store_timeout, and an Idempotency-Key is released for a retry', async () => {
    useMode('stored');
    const release = h.posts.hold();
    try {
      const answer = await send({ text: 'slow' }, '', { 'Idempotency-Key': 'slow-1' });
      assert.equal(answer.statusCode, 503);
      assert.equal((answer.json() as Json).id, 'web.incoming_webhook.store_timeout.app_error');
    } finally {
      release();
    }
    const retry = await send({ text: 'slow' }, '?wait=true', { 'Idempotency-Key': 'slow-1' });
    assert.equal(retry.statusCode, 200);
    for (const id of (retry.json() as { post_ids: string[] }).post_ids) assert.ok(h.posts.stored.has(id));
  });

  it('when the mode is queued, then ok comes before the post exists, and the post still appears', async () => {
    useMode('queued');
    const release = h.posts.hold();
    let ids: string[];
    try {
      const answer = await send({ text: 'queued' }, '?wait=true');
      assert.equal(answer.statusCode, 200);
      ids = (answer.json() as { post_ids: string[] }).post_ids;
      assert.equal(ids.length, 1);
      assert.equal(h.posts.stored.has(ids[0] ?? ''), false, 'not stored when answered');
    } finally {
      release();
    }
    await h.posts.whenStored(ids[0] ?? '');
    assert.ok(h.posts.stored.has(ids[0] ?? ''));
    useMode('stored');
  });
});
