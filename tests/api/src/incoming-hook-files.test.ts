import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { assertAppError, raw, sleep, type RawResponse } from './support/http';
import { channelPosts, createIncomingHook } from './support/incoming-hooks';
import { startOutgoingReceiver, type OutgoingReceiver } from './support/outgoing-receiver';
import { PICTURES } from './support/pictures';
import { newChannel } from './support/posts-fixtures';
import { parsed } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

interface Part {
  readonly name: string;
  /** A file part when set (may be ''). */
  readonly filename?: string;
  readonly data: Buffer | string;
  readonly type?: string;
}

const BOUNDARY = 'hookfilesboundary7MA4YWxkTrZu0gW';

/** A multipart body written by hand, so names and breakage are exactly what the test says. */
function multipart(parts: readonly Part[], end = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename !== undefined ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  if (end) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const payload = (body: unknown): Part => ({ name: 'payload', data: JSON.stringify(body) });
const file = (filename: string, data: Buffer | string, type?: string): Part => ({ name: 'files', filename, data, ...(type ? { type } : {}) });

/** README "Files on incoming hooks": `POST /hooks/{key}` multipart with a `payload` part and `files` parts. */
describe('incoming hooks with files (multipart payload + files)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let receiver: OutgoingReceiver;

  before(async () => {
    world = await wsWorld({ alsoRestore: ['AllowedUntrustedInternalConnections'] });
    receiver = await startOutgoingReceiver();
    await patchConfig(world.admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', EnableOutgoingWebhooks: true } });
  });
  after(async () => {
    await patchConfig(world.admin.client, { FileSettings: { EnableFileAttachments: true, MaxFileSize: 104857600 } }).catch(() => undefined);
    await receiver?.close();
    await world?.stop();
  });

  const send = async (key: string, body: Buffer, options: { query?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> => {
    const response = await fetch(`${world.target.url}/hooks/${key}${options.query ?? ''}`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...(options.headers ?? {}) },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '' ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, json, cookies: [] };
  };
  const bytesOf = async (fileId: string, token: string): Promise<Buffer> => {
    const response = await fetch(`${world.target.url}/api/v4/files/${fileId}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    return Buffer.from(await response.arrayBuffer());
  };

  it('when a hook sends a payload and two files, then its post carries them in every answer, the WebSocket and the file_uploaded event, bytes intact', async () => {
    const { admin, alice, bob, team } = world;
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id, display_name: 'CI' });
    const listener = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', {
      token: admin.token,
      body: { team_id: team.id, channel_id: channel.id, callback_urls: [`${receiver.url}/hookfiles`], content_type: 'application/json', event_types: ['file_uploaded'] },
    });
    assert.equal(listener.status, 201, listener.text);
    const bobWs = await world.open(bob.token);
    const log = randomBytes(20_000);
    const sent = await send(hook.id, multipart([payload({ text: 'Build #12 failed, log attached' }), file('build.log', log), file('chart.png', PICTURES.png, 'image/png')]), { query: '?wait=true' });
    assert.equal(sent.status, 200, sent.text);
    const [postId] = (sent.json as { post_ids: string[] }).post_ids;
    assert.ok(postId);
    const read = await raw(world.target.url, 'GET', `/api/v4/posts/${postId}`, { token: bob.token });
    const post = read.json as { message: string; user_id: string; file_ids: string[]; props: Record<string, unknown>; metadata: { files: { id: string; name: string; size: number; user_id: string; post_id: string }[] } };
    assert.equal(post.message, 'Build #12 failed, log attached');
    assert.equal(post.props.from_webhook, 'true');
    assert.equal(post.file_ids.length, 2);
    assert.deepEqual(post.metadata.files.map((f) => f.name).sort(), ['build.log', 'chart.png']);
    for (const f of post.metadata.files) {
      assert.equal(f.post_id, postId);
      assert.equal(f.user_id, admin.user.id);
    }
    const logInfo = post.metadata.files.find((f) => f.name === 'build.log');
    assert.equal(logInfo?.size, log.length);
    assert.equal(Buffer.compare(await bytesOf(String(logInfo?.id), bob.token), log), 0);
    const infos = await raw(world.target.url, 'GET', `/api/v4/posts/${postId}/files/info`, { token: bob.token });
    assert.deepEqual((infos.json as { id: string }[]).map((f) => f.id).sort(), [...post.file_ids].sort());
    const posted = await bobWs.event('posted', (f) => parsed(f, 'post').id === postId);
    assert.deepEqual((parsed(posted, 'post') as { metadata: { files: { id: string }[] } }).metadata.files.map((f) => f.id).sort(), [...post.file_ids].sort());
    assert.equal(posted.data?.image, 'true');
    const first = await receiver.waitFor((r) => r.path === '/hookfiles');
    const event = JSON.parse(first.body) as { type: string; data: { file_info: { post_id: string } } };
    assert.equal(event.type, 'file_uploaded');
    assert.equal(event.data.file_info.post_id, postId);
  });

  it('when the same Idempotency-Key is sent again with files, then the answer is replayed and one post carries one copy of the files', async () => {
    const { alice, team } = world;
    const channel = await newChannel(alice, team);
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    const body = multipart([payload({ text: 'nightly report' }), file('report.csv', 'a,b\n1,2\n')]);
    const key = `files-${randomBytes(6).toString('hex')}`;
    const first = await send(hook.id, body, { query: '?wait=true', headers: { 'Idempotency-Key': key } });
    const second = await send(hook.id, body, { query: '?wait=true', headers: { 'Idempotency-Key': key } });
    assert.equal(first.status, 200, first.text);
    assert.equal(second.text, first.text);
    const posts = (await channelPosts(world.target.url, alice.token, channel.id)).filter((p) => p.message === 'nightly report');
    assert.equal(posts.length, 1);
    assert.equal(posts[0]?.file_ids?.length, 1);
  });

  it('when the JSON payload names file_ids of its owner\'s own upload, then the hook does not attach them: only its parts', async () => {
    const { alice, team } = world;
    const channel = await newChannel(alice, team);
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    const form = new FormData();
    form.append('channel_id', channel.id);
    form.append('files', new Blob(['private draft']), 'draft.txt');
    const uploaded = await fetch(`${world.target.url}/api/v4/files`, { method: 'POST', headers: { Authorization: `Bearer ${world.admin.token}` }, body: form });
    const draftId = ((await uploaded.json()) as { file_infos: { id: string }[] }).file_infos[0]?.id ?? '';
    const sent = await send(hook.id, multipart([payload({ text: 'steal it', file_ids: [draftId] }), file('mine.txt', 'mine')]), { query: '?wait=true' });
    assert.equal(sent.status, 200, sent.text);
    const postId = (sent.json as { post_ids: string[] }).post_ids[0];
    const post = (await raw(world.target.url, 'GET', `/api/v4/posts/${postId}`, { token: alice.token })).json as { file_ids: string[] };
    assert.equal(post.file_ids.length, 1);
    assert.notEqual(post.file_ids[0], draftId);
    const plain = await raw(world.target.url, 'POST', `/hooks/${hook.id}?wait=true`, { body: { text: 'json steal', file_ids: [draftId] } });
    const plainPost = (await raw(world.target.url, 'GET', `/api/v4/posts/${(plain.json as { post_ids: string[] }).post_ids[0]}`, { token: alice.token })).json as { file_ids?: string[] };
    assert.deepEqual(plainPost.file_ids ?? [], []);
  });

  it('when the body is bad (empty or nameless file, a path, too many, truncated, no or bad payload, a lying PNG), then a clear 4xx and no post', async () => {
    const { alice, team } = world;
    const channel = await newChannel(alice, team);
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    const text = { text: 'should never post' };
    const cases: [string, Buffer, number, string][] = [
      ['zero-byte file', multipart([payload(text), file('empty.txt', '')]), 400, 'api.file.upload_file.empty.app_error'],
      ['nameless files part', multipart([payload(text), { name: 'files', data: 'no name' }]), 400, 'api.context.invalid_body_param.app_error'],
      ['empty file name', multipart([payload(text), file('', 'x')]), 400, 'api.context.invalid_body_param.app_error'],
      ['file part under another name', multipart([payload(text), { name: 'attachment', filename: 'a.txt', data: 'x' }]), 400, 'api.context.invalid_body_param.app_error'],
      ['dot-dot path', multipart([payload(text), file('../../etc/passwd', 'x')]), 400, 'api.file.upload_file.bad_name.app_error'],
      ['directory path', multipart([payload(text), file('a/b.txt', 'x')]), 400, 'api.file.upload_file.bad_name.app_error'],
      ['eleven files', multipart([payload(text), ...Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`, `file ${i}`))]), 400, 'model.post.is_valid.file_ids.app_error'],
      ['truncated body', multipart([payload(text), file('cut.txt', 'cut here')], false).subarray(0, -4), 400, 'api.webhook.incoming.error'],
      ['files without payload', multipart([file('lonely.txt', 'x')]), 400, 'web.incoming_webhook.parse.app_error'],
      ['files with form fields instead of payload', multipart([{ name: 'text', data: 'hi' }, file('x.txt', 'x')]), 400, 'web.incoming_webhook.parse.app_error'],
      ['payload not JSON', multipart([{ name: 'payload', data: '{"text": ' }, file('x.txt', 'x')]), 400, 'model.incoming_hook.parse_data.app_error'],
      ['payload null', multipart([{ name: 'payload', data: 'null' }, file('x.txt', 'x')]), 400, 'web.incoming_webhook.parse.app_error'],
      ['PNG name on garbage', multipart([payload(text), file('shot.png', randomBytes(300), 'image/png')]), 400, 'api.file.upload_file.image_invalid.app_error'],
    ];
    for (const [label, body, status, id] of cases) {
      const res = await send(hook.id, body);
      assert.equal(res.status, status, `${label}: ${res.text}`);
      assertAppError(res, status, id);
    }
    const noBoundary = await fetch(`${world.target.url}/hooks/${hook.id}`, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'payload={}' });
    assert.equal(noBoundary.status, 400);
    await sleep(200);
    assert.equal((await channelPosts(world.target.url, alice.token, channel.id)).filter((p) => p.message === text.text).length, 0);
  });

  it('when a file is over MaxFileSize or attachments are off, then the upload\'s 413 and 501, and no post', async () => {
    const { admin, alice, team } = world;
    const channel = await newChannel(alice, team);
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    // Over MaximumPayloadSizeBytes (300000): taken for a live hook's key, refused as a JSON body's cap for any other key.
    const large = multipart([payload({ text: 'large file' }), file('large.bin', randomBytes(400_000))]);
    const taken = await send(hook.id, large, { query: '?wait=true' });
    assert.equal(taken.status, 200, taken.text);
    assertAppError(await send('x'.repeat(26), large), 413, 'api.context.request_body_too_large.app_error');
    await patchConfig(admin.client, { FileSettings: { MaxFileSize: 4096 } });
    try {
      assertAppError(await send(hook.id, multipart([payload({ text: 'too big' }), file('big.bin', randomBytes(6000))])), 413, 'api.file.upload_file.too_large_detailed.app_error');
      const fits = await send(hook.id, multipart([payload({ text: 'fits' }), file('small.bin', randomBytes(2000))]), { query: '?wait=true' });
      assert.equal(fits.status, 200, fits.text);
    } finally {
      await patchConfig(admin.client, { FileSettings: { MaxFileSize: 104857600 } });
    }
    await patchConfig(admin.client, { FileSettings: { EnableFileAttachments: false } });
    try {
      assertAppError(await send(hook.id, multipart([payload({ text: 'off' }), file('x.txt', 'x')])), 501, 'api.file.attachments.disabled.app_error');
      // Without files the hook posts as always.
      const plain = await send(hook.id, multipart([payload({ text: 'text only' })]));
      assert.equal(plain.status, 200, plain.text);
    } finally {
      await patchConfig(admin.client, { FileSettings: { EnableFileAttachments: true } });
    }
    const messages = (await channelPosts(world.target.url, alice.token, channel.id)).map((p) => p.message);
    assert.ok(!messages.includes('too big') && !messages.includes('off'));
    assert.ok(messages.includes('fits') && messages.includes('text only') && messages.includes('large file'));
  });
});
