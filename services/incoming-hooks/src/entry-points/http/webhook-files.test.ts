import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { badRequest } from '@switchyard/errors';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const BOUNDARY = 'unitboundary';

function multipart(parts: { name: string; filename?: string; data: string }[]): Buffer {
  const body = parts
    .map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n\r\n${p.data}\r\n`)
    .join('');
  return Buffer.from(`${body}--${BOUNDARY}--\r\n`);
}

/** README "Files on incoming hooks": when the files are stored, and that nothing is left behind. */
describe('POST /hooks/{key} with files: upload after every check, once per Idempotency-Key, discarded when posts refuses', () => {
  let h: HttpHarness;
  let hook: { id: string };
  let spoolDir: string;
  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'hook-spool-test-'));
    h = await httpHarness({ hookSpoolDir: spoolDir });
    hook = await h.createHook();
  });
  after(async () => {
    await h.stop();
    await rm(spoolDir, { recursive: true, force: true });
  });
  const spooled = async (): Promise<string[]> => readdir(spoolDir).catch(() => []);
  const send = (body: Buffer, headers: Record<string, string> = {}, key = hook.id) =>
    h.request('POST', `/hooks/${key}?wait=true`, { raw: body, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } });
  const withFiles = (payload: unknown, ...names: string[]) => multipart([{ name: 'payload', data: JSON.stringify(payload) }, ...names.map((n) => ({ name: 'files', filename: n, data: `bytes of ${n}` }))]);

  it('when a hook sends files, then they are uploaded as its owner into its channel and the last part of the post carries their ids', async () => {
    const before = h.files.uploads.length;
    const res = await send(withFiles({ text: 'report' }, 'a.txt', 'b.txt'));
    assert.equal(res.statusCode, 200, res.body);
    const upload = h.files.uploads[before];
    assert.equal(upload?.channelId, h.town.id);
    assert.equal(upload?.userId, h.teamAdmin.userId);
    assert.deepEqual(upload?.names, ['a.txt', 'b.txt']);
    const postId = (JSON.parse(res.body) as { post_ids: string[] }).post_ids[0] as string;
    assert.deepEqual(h.posts.stored.get(postId)?.file_ids, upload?.ids);
  });

  it('when the same Idempotency-Key comes again, then nothing is uploaded a second time', async () => {
    const before = h.files.uploads.length;
    const first = await send(withFiles({ text: 'once' }, 'once.txt'), { 'Idempotency-Key': 'files-1' });
    const second = await send(withFiles({ text: 'once' }, 'once.txt'), { 'Idempotency-Key': 'files-1' });
    assert.equal(second.body, first.body);
    assert.equal(h.files.uploads.length, before + 1);
  });

  it('when a hook check fails (unknown channel, locked, bad root), then no file is uploaded', async () => {
    const before = h.files.uploads.length;
    assertError(await send(withFiles({ text: 'x', channel: 'nowhere' }, 'x.txt')), 404, 'web.incoming_webhook.channel.app_error');
    assertError(await send(withFiles({ text: 'x', root_id: 'not-an-id' }, 'x.txt')), 400, 'api.context.invalid_param.app_error');
    assertError(await send(withFiles({ text: 'x' }, 'x.txt'), {}, 'unknownhookkey0000000000000'), 400, 'web.incoming_webhook.invalid.app_error');
    assert.equal(h.files.uploads.length, before);
  });

  it('when posts refuses the post after the upload, then the uploaded files are discarded and the refusal answered', async () => {
    h.posts.refuse = () => ({ id: 'api.post.create_post.can_not_post_to_deleted.error', message: 'Can not post to deleted channel.', status_code: 400 });
    try {
      const res = await send(withFiles({ text: 'refused' }, 'gone.txt'));
      assertError(res, 400, 'api.post.create_post.can_not_post_to_deleted.error');
      const last = h.files.uploads[h.files.uploads.length - 1];
      assert.deepEqual(h.files.discarded[h.files.discarded.length - 1], { userId: h.teamAdmin.userId, ids: last?.ids });
    } finally {
      h.posts.refuse = undefined;
    }
  });

  it('when posts refuses the files, then its error is the answer and no post is made', async () => {
    h.files.refuse = badRequest('api.file.upload_file.bad_name.app_error', 'Unable to upload file. The file name is not valid.');
    try {
      const before = h.posts.stored.size;
      assertError(await send(withFiles({ text: 'bad name' }, 'x.txt')), 400, 'api.file.upload_file.bad_name.app_error');
      assert.equal(h.posts.stored.size, before);
    } finally {
      h.files.refuse = undefined;
    }
  });

  it('when files come with nothing else to say, then the post may have no text', async () => {
    const res = await send(withFiles({}, 'only.txt'));
    assert.equal(res.statusCode, 200, res.body);
    assertError(await send(multipart([{ name: 'payload', data: '{}' }])), 400, 'web.incoming_webhook.text.app_error');
  });

  it('when files stream in, then posts gets their exact bytes from the spool, and the spool is empty once answered (taken or refused)', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const res = await send(multipart([{ name: 'payload', data: '{"text":"spooled"}' }, { name: 'files', filename: 'big.txt', data: big }, { name: 'files', filename: 'small.txt', data: 'small' }]));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(h.files.uploads[h.files.uploads.length - 1]?.contents, [big, 'small']);
    assert.deepEqual(await spooled(), []);
    assertError(await send(withFiles({ text: 'x', channel: 'nowhere' }, 'x.txt')), 404, 'web.incoming_webhook.channel.app_error');
    assertError(await send(multipart([{ name: 'payload', data: '{"text":"x"}' }, { name: 'files', filename: 'a.txt', data: 'a' }, { name: 'other', filename: 'b.txt', data: 'b' }])), 400, 'api.context.invalid_body_param.app_error');
    assert.deepEqual(await spooled(), []);
  });

  it('when a file is over MaxFileSize or the body is cut short, then a clear 4xx and nothing stays in the spool', async () => {
    h.setConfig((c) => {
      c.FileSettings.MaxFileSize = 1_000_000;
    });
    try {
      const res = await send(multipart([{ name: 'payload', data: '{"text":"too big"}' }, { name: 'files', filename: 'big.bin', data: 'y'.repeat(1_200_000) }]));
      assert.equal(res.statusCode, 413, res.body);
      const whole = withFiles({ text: 'cut' }, 'cut.txt');
      assertError(await send(whole.subarray(0, whole.length - 20)), 400, 'api.webhook.incoming.error');
      assert.deepEqual(await spooled(), []);
    } finally {
      h.setConfig((c) => {
        c.FileSettings.MaxFileSize = 104857600;
      });
    }
  });

  it('when a hook with a transform gets a multipart body, then the payload part goes through the transform and the post keeps the files', async () => {
    const transformed = await h.createHook({ transform: { jsonata: '{"text": "build " & body.status}' } });
    const before = h.files.uploads.length;
    const res = await send(withFiles({ status: 'failed' }, 'log.txt'), {}, transformed.id);
    assert.equal(res.statusCode, 200, res.body);
    const upload = h.files.uploads[before];
    assert.deepEqual(upload?.contents, ['bytes of log.txt']);
    const postId = (JSON.parse(res.body) as { post_ids: string[] }).post_ids[0] as string;
    assert.equal(h.posts.stored.get(postId)?.message, 'build failed');
    assert.deepEqual(h.posts.stored.get(postId)?.file_ids, upload?.ids);
    // Fields other than the payload are not a vendor body.
    assertError(await send(multipart([{ name: 'text', data: 'plain' }, { name: 'files', filename: 'a.txt', data: 'a' }]), {}, transformed.id), 400, 'web.incoming_webhook.parse.app_error');
    assert.equal(h.files.uploads.length, before + 1);
  });

  it('when a transform hook has a secret, then the vendor signature is checked over the whole multipart body as received', async () => {
    const secret = 'multipart-secret';
    const gh = await h.createHook({ transform: { jsonata: '{"text": body.msg}' }, transform_secret: secret });
    // A jsonata hook has no signature scheme: the secret alone does not refuse it.
    assert.equal((await send(withFiles({ msg: 'unsigned' }, 'u.txt'), {}, gh.id)).statusCode, 200);
    const signed = await h.createHook({ transform: { template: 'github' }, transform_secret: secret });
    const body = multipart([{ name: 'payload', data: readFileSync(join(__dirname, '..', '..', '..', 'templates', 'fixtures', 'github', 'push.json'), 'utf8') }, { name: 'files', filename: 'z.txt', data: 'zen' }]);
    const sig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const before = h.files.uploads.length;
    const wrong = await send(body, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update('{}').digest('hex')}` }, signed.id);
    assertError(wrong, 401, 'api.webhook.transform.signature.app_error');
    const ok = await send(body, { 'x-github-event': 'push', 'x-hub-signature-256': sig }, signed.id);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(h.files.uploads.length, before + 1);
    assert.deepEqual(await spooled(), []);
  });
});
