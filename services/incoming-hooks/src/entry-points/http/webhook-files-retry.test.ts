import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const BOUNDARY = 'retryboundary';

function withFiles(payload: unknown, ...names: string[]): Buffer {
  const parts = [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${JSON.stringify(payload)}\r\n`];
  for (const name of names) parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n\r\nbytes of ${name}\r\n`);
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}

/**
 * A keyed hook request with files, retried after a 5xx (the key is released): the retry names the posts and
 * files of the first try, so the user ends with one post and one copy of each file, whatever the first try left.
 */
describe('POST /hooks/{key} with files, retried with its Idempotency-Key after a 5xx', () => {
  let h: HttpHarness;
  let hook: { id: string };
  before(async () => {
    h = await httpHarness({ storedAckTimeoutMs: 300 });
    hook = await h.createHook();
  });
  after(async () => {
    await h.stop();
  });
  const send = (body: Buffer, key: string) =>
    h.request('POST', `/hooks/${hook.id}?wait=true`, { raw: body, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'Idempotency-Key': key } });

  it('when the first try failed before its post was sent (bus down), then the retry uploads under the same file ids and makes the one post', async () => {
    const before = h.files.uploads.length;
    h.bus.fail = new Error('broker down');
    const first = await send(withFiles({ text: 'report' }, 'a.txt', 'b.txt'), 'retry-bus');
    h.bus.fail = undefined;
    assert.ok(first.statusCode >= 500, first.body);
    const firstIds = h.files.uploads[before]?.ids;
    assert.equal(firstIds?.length, 2);
    const second = await send(withFiles({ text: 'report' }, 'a.txt', 'b.txt'), 'retry-bus');
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual(h.files.uploads[before + 1]?.ids, firstIds, 'the same file ids: posts keeps the first copy');
    const postId = (JSON.parse(second.body) as { post_ids: string[] }).post_ids[0] as string;
    assert.deepEqual(h.posts.stored.get(postId)?.file_ids, firstIds);
  });

  it('when the first try\'s post was stored after its answer timed out, then the retry answers that post: no second upload, no second post', async () => {
    const release = h.posts.hold();
    const commandsBefore = h.bus.commands().length;
    const first = await send(withFiles({ text: 'slow' }, 'slow.txt'), 'retry-slow');
    assert.equal(first.statusCode, 503, first.body);
    const command = h.bus.commands()[commandsBefore];
    const postId = command?.value.payload.post.id as string;
    release();
    await h.posts.whenStored(postId);
    // What posts' internal API now answers for that id.
    h.channels.posts.set(postId, { id: postId, channel_id: h.town.id, root_id: '', delete_at: 0 });
    const uploads = h.files.uploads.length;
    const second = await send(withFiles({ text: 'slow' }, 'slow.txt'), 'retry-slow');
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual((JSON.parse(second.body) as { post_ids: string[] }).post_ids, [postId]);
    assert.equal(h.files.uploads.length, uploads, 'no second upload');
    assert.equal(h.bus.commands().length, commandsBefore + 1, 'no second post command');
  });

  it('when two different keys send the same body, then they are two requests: two posts, two uploads, different ids', async () => {
    const before = h.files.uploads.length;
    const a = await send(withFiles({ text: 'same' }, 's.txt'), 'key-a');
    const b = await send(withFiles({ text: 'same' }, 's.txt'), 'key-b');
    assert.equal(a.statusCode, 200, a.body);
    assert.equal(b.statusCode, 200, b.body);
    assert.notDeepEqual(JSON.parse(a.body), JSON.parse(b.body));
    assert.equal(h.files.uploads.length, before + 2);
    assert.notDeepEqual(h.files.uploads[before]?.ids, h.files.uploads[before + 1]?.ids);
  });
});
