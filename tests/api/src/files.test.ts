import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import { eventually } from './support/eventually';
import { patchConfig, type AdminSession } from './support/fixtures';
import { assertAppError, type RawResponse } from './support/http';
import { PICTURES, pngBomb } from './support/pictures';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

type Bytes = RawResponse & { bytes: Buffer };

describe('files: upload, download, previews and files on posts', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'fa');
    bob = await teamMember(target.url, admin, team, 'fb');
  });
  after(async () => {
    await patchConfig(admin.client, { FileSettings: { EnableFileAttachments: true, MaxFileSize: 104857600 } }).catch(() => undefined);
    await target?.stop();
  });

  const send = async (method: string, path: string, token: string, body?: FormData | Buffer | string, headers: Record<string, string> = {}): Promise<Bytes> => {
    const response = await fetch(`${target.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...headers },
      body: Buffer.isBuffer(body) ? new Uint8Array(body) : (body as FormData | string | undefined),
      signal: AbortSignal.timeout(30_000),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '' ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, json, cookies: [], bytes };
  };

  const form = (channelId: string | undefined, files: { name: string; data: Buffer | string; type?: string }[], clientIds: string[] = []): FormData => {
    const f = new FormData();
    if (channelId !== undefined) f.append('channel_id', channelId);
    for (const c of clientIds) f.append('client_ids', c);
    for (const file of files) f.append('files', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
    return f;
  };

  const upload = async (actor: Actor, channelId: string, name: string, data: Buffer | string): Promise<Record<string, unknown>> => {
    const res = await send('POST', '/api/v4/files', actor.token, form(channelId, [{ name, data }]));
    assert.equal(res.status, 201, res.text);
    return res.json.file_infos[0];
  };

  it('when files are uploaded with @mattermost/client, then 201 with their infos and client ids, and the bytes read back exactly', async () => {
    const channel = await newChannel(alice, team);
    const report = randomBytes(50_000);
    const f = form(channel.id, [{ name: 'report.bin', data: report }, { name: 'Chart.PNG', data: PICTURES.png, type: 'image/png' }], ['c1', 'c2']);
    const answer = (await alice.client.uploadFile(f)) as unknown as { file_infos: Record<string, unknown>[]; client_ids: string[] };
    assert.deepEqual(answer.client_ids, ['c1', 'c2']);
    const [bin, png] = answer.file_infos;
    assert.ok(bin && png);
    assert.equal(bin.name, 'report.bin');
    assert.equal(bin.size, report.length);
    assert.equal(bin.user_id, alice.id);
    assert.equal(bin.post_id, undefined);
    assert.equal(png.extension, 'png');
    assert.equal(png.mime_type, 'image/png');
    assert.equal(png.width, 16);
    assert.equal(png.height, 12);
    assert.equal(png.has_preview_image, true);
    assert.equal(typeof png.mini_preview, 'string');
    const got = await send('GET', `/api/v4/files/${String(bin.id)}`, alice.token);
    assert.equal(got.status, 200);
    assert.equal(Buffer.compare(got.bytes, report), 0);
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(got.headers.get('content-disposition'), 'attachment;filename="report.bin"; filename*=UTF-8\'\'report.bin');
    const image = await send('GET', `/api/v4/files/${String(png.id)}`, alice.token);
    assert.equal(Buffer.compare(image.bytes, PICTURES.png), 0);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.match(image.headers.get('content-disposition') ?? '', /^inline;filename="Chart.PNG"/);
    assert.match((await send('GET', `/api/v4/files/${String(png.id)}?download=true`, alice.token)).headers.get('content-disposition') ?? '', /^attachment;/);
    for (const variant of ['thumbnail', 'preview']) {
      const v = await send('GET', `/api/v4/files/${String(png.id)}/${variant}`, alice.token);
      assert.equal(v.status, 200, v.text);
      assert.equal(v.headers.get('content-type'), 'image/jpeg');
      assert.equal(v.bytes.subarray(0, 3).toString('hex'), 'ffd8ff');
    }
    assertAppError(await send('GET', `/api/v4/files/${String(bin.id)}/thumbnail`, alice.token), 400, 'api.file.get_file_thumbnail.no_thumbnail.app_error');
    assertAppError(await send('GET', `/api/v4/files/${String(bin.id)}/preview`, alice.token), 400, 'api.file.get_file_preview.no_preview.app_error');
    const info = await send('GET', `/api/v4/files/${String(png.id)}/info`, alice.token);
    assert.equal(info.json.id, png.id);
    assert.equal(info.headers.get('cache-control'), 'max-age=2592000, private');
  });

  it('when a file is sent as the raw body with channel_id and filename, then it is stored and client_ids is null', async () => {
    const channel = await newChannel(alice, team);
    const res = await send('POST', `/api/v4/files?channel_id=${channel.id}&filename=notes.txt`, alice.token, 'plain text body', { 'Content-Type': 'application/octet-stream' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.client_ids, null);
    assert.equal(res.json.file_infos[0].mime_type, 'text/plain');
    assert.equal((await send('GET', `/api/v4/files/${String(res.json.file_infos[0].id)}`, alice.token)).text, 'plain text body');
    assertAppError(await send('POST', `/api/v4/files?channel_id=${channel.id}`, alice.token, 'x', { 'Content-Type': 'application/octet-stream' }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await send('POST', '/api/v4/files?channel_id=nope&filename=a.txt', alice.token, 'x', { 'Content-Type': 'application/octet-stream' }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a post lists file ids, then only the author\'s unattached files of the channel are attached, in metadata.files and /posts/{id}/files/info', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const a = await upload(alice, channel.id, 'a.txt', 'aaa');
    const b = await upload(alice, channel.id, 'b.png', PICTURES.png);
    const bobs = await upload(bob, channel.id, 'bob.txt', 'bob');
    const elsewhere = await upload(alice, (await newChannel(alice, team)).id, 'e.txt', 'eee');
    const post = await postIn(alice, channel.id, 'with files', { file_ids: [String(a.id), String(b.id), String(bobs.id), String(elsewhere.id), String(a.id)] });
    assert.deepEqual(post.file_ids, [a.id, b.id]);
    const files = (post.metadata as unknown as { files: Record<string, unknown>[] }).files;
    assert.deepEqual(files.map((f) => f.id), [a.id, b.id]);
    assert.equal(files[0]?.post_id, post.id);
    const listed = await send('GET', `/api/v4/posts/${post.id}/files/info`, bob.token);
    assert.deepEqual((listed.json as Record<string, unknown>[]).map((f) => f.id), [a.id, b.id]);
    const again = await postIn(alice, channel.id, 'reuse', { file_ids: [String(a.id)] });
    assert.deepEqual(again.file_ids, [], 'a file is attached once');
    const read = await alice.client.getPost(post.id);
    assert.deepEqual(((read.metadata as unknown as { files: Record<string, unknown>[] }).files ?? []).map((f) => f.id), [a.id, b.id]);
    // bob reads the attached file (channel member), not alice's unattached one
    assert.equal((await send('GET', `/api/v4/files/${String(a.id)}`, bob.token)).text, 'aaa');
    assertAppError(await send('GET', `/api/v4/files/${String(elsewhere.id)}`, bob.token), 403, 'api.context.permissions.app_error');
    await alice.client.deletePost(post.id);
    assertAppError(await send('GET', `/api/v4/files/${String(a.id)}`, alice.token), 404, 'app.file_info.get.app_error');
    assertAppError(await send('GET', `/api/v4/files/${String(a.id)}/info`, alice.token), 404, 'app.file_info.get.app_error');
  });

  it('when a post is edited with new file ids, then the new files are attached and in metadata.files', async () => {
    const channel = await newChannel(alice, team);
    const a = await upload(alice, channel.id, 'one.txt', '1');
    const b = await upload(alice, channel.id, 'two.txt', '2');
    const post = await postIn(alice, channel.id, 'edit me', { file_ids: [String(a.id)] });
    const edited = await alice.client.patchPost({ id: post.id, file_ids: [String(a.id), String(b.id)] });
    assert.deepEqual(edited.file_ids, [a.id, b.id]);
    assert.deepEqual((edited.metadata as unknown as { files: Record<string, unknown>[] }).files.map((f) => f.id), [a.id, b.id]);
  });

  it('when a user outside a private channel asks for its files, then 403; unknown ids 404, bad ids 400', async () => {
    const channel = await newChannel(alice, team, 'P');
    const a = await upload(alice, channel.id, 'secret.txt', 'secret');
    const post = await postIn(alice, channel.id, 'private', { file_ids: [String(a.id)] });
    assertAppError(await send('GET', `/api/v4/files/${String(a.id)}`, bob.token), 403, 'api.context.permissions.app_error');
    assertAppError(await send('GET', `/api/v4/posts/${post.id}/files/info`, bob.token), 403, 'api.context.permissions.app_error');
    assertAppError(await send('POST', '/api/v4/files', bob.token, form(channel.id, [{ name: 'x.txt', data: 'x' }])), 403, 'api.context.permissions.app_error');
    assertAppError(await send('GET', '/api/v4/files/abcdefghijklmnopqrstuvwxyz', alice.token), 404, 'app.file_info.get.app_error');
    assertAppError(await send('GET', '/api/v4/files/short', alice.token), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a file is SVG or HTML, then it is never served inline and HTML is text/plain', async () => {
    const channel = await newChannel(alice, team);
    const svg = await upload(alice, channel.id, 'x.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = await upload(alice, channel.id, 'x.html', '<script>alert(1)</script>');
    const s = await send('GET', `/api/v4/files/${String(svg.id)}`, alice.token);
    assert.match(s.headers.get('content-disposition') ?? '', /^attachment;/);
    assert.equal(svg.has_preview_image, undefined);
    const h = await send('GET', `/api/v4/files/${String(html.id)}`, alice.token);
    assert.equal(h.headers.get('content-type'), 'text/plain');
    assert.match(h.headers.get('content-disposition') ?? '', /^attachment;/);
  });

  it('when the input is bad, then a clear 4xx and never a 5xx', async () => {
    const channel = await newChannel(alice, team);
    const post = (files: { name: string; data: Buffer | string }[]) => send('POST', '/api/v4/files', alice.token, form(channel.id, files));
    assertAppError(await post([{ name: 'empty.txt', data: '' }]), 400, 'api.file.upload_file.empty.app_error');
    for (const name of ['../x.txt', 'a/b.txt', 'a\\b.txt', `${'n'.repeat(300)}.txt`]) assertAppError(await post([{ name, data: 'x' }]), 400, 'api.file.upload_file.bad_name.app_error');
    assertAppError(await post([{ name: 'fake.png', data: Buffer.concat([PICTURES.png.subarray(0, 16), randomBytes(200)]) }]), 400, 'api.file.upload_file.image_invalid.app_error');
    assertAppError(await post([{ name: 'lying.png', data: 'just text' }]), 400, 'api.file.upload_file.image_invalid.app_error');
    assertAppError(await post([{ name: 'bomb.png', data: pngBomb(50_000, 50_000) }]), 400, 'api.file.upload_file.large_image_detailed.app_error');
    const extra = form(channel.id, [{ name: 'a.txt', data: 'a' }]);
    extra.append('surprise', 'x');
    assertAppError(await send('POST', '/api/v4/files', alice.token, extra), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await send('POST', '/api/v4/files', alice.token, form(channel.id, [{ name: 'a.txt', data: 'a' }], ['c1', 'c2'])), 400, 'api.file.upload_file.incorrect_number_of_client_ids.app_error');
    const boundary = 'XyZ';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="channel_id"\r\n\r\n${channel.id}\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="t.txt"\r\n\r\nhalf a fi`;
    assertAppError(await send('POST', '/api/v4/files', alice.token, truncated, { 'Content-Type': `multipart/form-data; boundary=${boundary}` }), 400, 'api.file.upload_file.read_request.app_error');
    const many = form(channel.id, Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })));
    assertAppError(await send('POST', '/api/v4/files', alice.token, many), 400, 'api.file.upload_file.read_request.app_error');
    assertAppError(await send('POST', '/api/v4/files', alice.token, form(undefined, [{ name: 'a.txt', data: 'a' }])), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when a file is over MaxFileSize, then 413 too_large_detailed; with attachments disabled, 501', async () => {
    const channel = await newChannel(alice, team);
    await patchConfig(admin.client, { FileSettings: { MaxFileSize: 10_000 } });
    try {
      assertAppError(await send('POST', '/api/v4/files', alice.token, form(channel.id, [{ name: 'big.bin', data: randomBytes(20_000) }])), 413, 'api.file.upload_file.too_large_detailed.app_error');
      assertAppError(
        await send('POST', `/api/v4/files?channel_id=${channel.id}&filename=big.bin`, alice.token, randomBytes(20_000), { 'Content-Type': 'application/octet-stream' }),
        413,
        'api.file.upload_file.too_large_detailed.app_error',
      );
      assert.equal((await send('POST', '/api/v4/files', alice.token, form(channel.id, [{ name: 'small.bin', data: randomBytes(5_000) }]))).status, 201);
    } finally {
      await patchConfig(admin.client, { FileSettings: { MaxFileSize: 104857600 } });
    }
    await patchConfig(admin.client, { FileSettings: { EnableFileAttachments: false } });
    try {
      assertAppError(await send('POST', '/api/v4/files', alice.token, form(channel.id, [{ name: 'a.txt', data: 'a' }])), 501, 'api.file.attachments.disabled.app_error');
    } finally {
      await patchConfig(admin.client, { FileSettings: { EnableFileAttachments: true } });
    }
  });

  it('when public links are off (the default), then /link is 501 disabled', async () => {
    const channel = await newChannel(alice, team);
    const a = await upload(alice, channel.id, 'l.txt', 'l');
    assertAppError(await send('GET', `/api/v4/files/${String(a.id)}/link`, alice.token), 501, 'api.file.get_public_link.disabled.app_error');
  });

  it('when public links are switched on, then the salt generated at first start signs them: the link serves the bytes without a session, a wrong hash is 400', async () => {
    const channel = await newChannel(alice, team);
    const a = await upload(alice, channel.id, 'shared.txt', 'shared bytes');
    await postIn(alice, channel.id, 'with a file', { file_ids: [String(a.id)] });
    await patchConfig(admin.client, { FileSettings: { EnablePublicLink: true } });
    try {
      const link = await send('GET', `/api/v4/files/${String(a.id)}/link`, alice.token);
      assert.equal(link.status, 200, link.text);
      const url = new URL(String(link.json.link));
      assert.match(url.searchParams.get('h') ?? '', /^[A-Za-z0-9_-]{43}$/);
      const open = await fetch(`${target.url}${url.pathname}${url.search}`);
      assert.equal(open.status, 200);
      assert.equal(await open.text(), 'shared bytes');
      const wrong = await fetch(`${target.url}${url.pathname}?h=${'A'.repeat(43)}`);
      assert.equal(wrong.status, 400);
    } finally {
      await patchConfig(admin.client, { FileSettings: { EnablePublicLink: false } });
    }
  });

  it('when an admin empties PublicLinkSalt, then a new salt is generated (as the reference\'s SetDefaults on update): old links stop, new ones work', async () => {
    const channel = await newChannel(alice, team);
    const a = await upload(alice, channel.id, 'salted.txt', 'salted bytes');
    await postIn(alice, channel.id, 'with a salted file', { file_ids: [String(a.id)] });
    await patchConfig(admin.client, { FileSettings: { EnablePublicLink: true } });
    try {
      const linkOf = async (): Promise<string> => {
        const res = await send('GET', `/api/v4/files/${String(a.id)}/link`, alice.token);
        assert.equal(res.status, 200, res.text);
        const url = new URL(String(res.json.link));
        return `${url.pathname}${url.search}`;
      };
      const old = await linkOf();
      await patchConfig(admin.client, { FileSettings: { PublicLinkSalt: '' } });
      const shown = (await admin.client.getConfig()) as unknown as { FileSettings: { PublicLinkSalt: string } };
      assert.equal(shown.FileSettings.PublicLinkSalt, '********************************', 'a salt exists again, masked');
      const fresh = await eventually('posts signs with the new salt', async () => {
        const link = await linkOf();
        return link !== old ? link : undefined;
      });
      assert.equal((await fetch(`${target.url}${fresh}`)).status, 200);
      assert.equal((await fetch(`${target.url}${old}`)).status, 400);
    } finally {
      await patchConfig(admin.client, { FileSettings: { EnablePublicLink: false } });
    }
  });
});
