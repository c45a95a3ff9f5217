import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import type { AdminSession } from './support/fixtures';
import { assertAppError, raw, rawTarget } from './support/http';
import { PICTURES } from './support/pictures';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface Bytes {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * Downloads: streamed from the store (never held whole), with Go's ServeContent semantics the reference
 * answers with (mattermost-wire-3.md §1.4): one byte range → 206, unsatisfiable → 416, If-Modified-Since → 304.
 */
describe('files: downloads stream, with ranges and conditional requests', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let big: { id: string; data: Buffer };

  const get = async (path: string, token: string | undefined, headers: Record<string, string> = {}, method = 'GET'): Promise<Bytes> => {
    const res = await fetch(`${target.url}${path}`, { method, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers }, signal: AbortSignal.timeout(60_000) });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  const upload = async (actor: Actor, channelId: string, name: string, data: Buffer): Promise<string> => {
    const res = await fetch(`${target.url}/api/v4/files?channel_id=${channelId}&filename=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${actor.token}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(data),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    assert.equal(res.status, 201, text);
    return String((JSON.parse(text) as { file_infos: { id: string }[] }).file_infos[0]?.id);
  };

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'da');
    bob = await teamMember(target.url, admin, team, 'db');
    const channel = await newChannel(alice, team);
    const data = randomBytes(12 * 1024 * 1024 + 7);
    big = { id: await upload(alice, channel.id, 'big.bin', data), data };
  });
  after(async () => {
    await target?.stop();
  });

  it('when a large file is downloaded, then every byte comes with its length, Accept-Ranges and the reference headers', async () => {
    const res = await get(`/api/v4/files/${big.id}`, alice.token);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(big.data.length));
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-disposition'), 'attachment;filename="big.bin"; filename*=UTF-8\'\'big.bin');
    assert.match(res.headers.get('x-request-id') ?? '', /^[a-z0-9]{26}$/);
    assert.equal(sha256(res.bytes), sha256(big.data));
    const head = await get(`/api/v4/files/${big.id}`, alice.token, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(big.data.length));
    assert.equal(head.bytes.length, 0);
  });

  it('when one byte range is asked (first-last, open-ended, suffix), then 206 with exactly those bytes and Content-Range', async () => {
    const size = big.data.length;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=100-65635', 100, 65_635],
      [`bytes=${size - 5}-`, size - 5, size - 1],
      ['bytes=-10', size - 10, size - 1],
      [`bytes=5000000-${size + 1000}`, 5_000_000, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(`/api/v4/files/${big.id}`, alice.token, { Range: range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${size}`, range);
      assert.equal(res.headers.get('content-length'), String(end - start + 1), range);
      assert.ok(res.bytes.equals(big.data.subarray(start, end + 1)), range);
    }
    const head = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=10-19' }, 'HEAD');
    assert.equal(head.status, 206);
    assert.equal(head.headers.get('content-length'), '10');
  });

  it('when a range cannot be met or does not parse, then 416 as Go answers it; ranges adding up to more than the file get it whole', async () => {
    const size = big.data.length;
    const past = await get(`/api/v4/files/${big.id}`, alice.token, { Range: `bytes=${size}-` });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${size}`);
    assert.equal(past.bytes.toString(), 'invalid range: failed to overlap\n');
    for (const bad of ['items=0-1', 'bytes=5-1', 'bytes=x-2', 'bytes=1']) {
      const res = await get(`/api/v4/files/${big.id}`, alice.token, { Range: bad });
      assert.equal(res.status, 416, bad);
      assert.equal(res.bytes.toString(), 'invalid range\n', bad);
    }
    const overlapping = await get(`/api/v4/files/${big.id}`, alice.token, { Range: `bytes=0-,0-${size - 1}` });
    assert.equal(overlapping.status, 200);
    assert.equal(overlapping.bytes.length, size);
  });

  it('when several ranges are asked, then 206 multipart/byteranges as Go writes it: each part its Content-Range, Content-Type and bytes', async () => {
    const size = big.data.length;
    const asked: [number, number][] = [[0, 1], [10, 11], [5_000_000, 5_070_000], [size - 5, size - 1]];
    const partType = (await get(`/api/v4/files/${big.id}`, alice.token, {}, 'HEAD')).headers.get('content-type');
    assert.ok(partType);
    const res = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=0-1, 10-11,5000000-5070000,-5' });
    assert.equal(res.status, 206);
    const boundary = /^multipart\/byteranges; boundary=([0-9a-f]{60})$/.exec(res.headers.get('content-type') ?? '')?.[1];
    assert.ok(boundary, res.headers.get('content-type') ?? 'no content-type');
    assert.equal(res.headers.get('content-range'), null);
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(res.headers.get('content-disposition'), 'attachment;filename="big.bin"; filename*=UTF-8\'\'big.bin');
    const expected = Buffer.concat([
      ...asked.flatMap(([start, end], i) => [
        Buffer.from(`${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Range: bytes ${start}-${end}/${size}\r\nContent-Type: ${partType}\r\n\r\n`),
        big.data.subarray(start, end + 1),
      ]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    assert.equal(res.headers.get('content-length'), String(expected.length));
    assert.ok(res.bytes.equals(expected), `multipart body of ${res.bytes.length} bytes differs from the ${expected.length} expected`);
    const head = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=0-1,10-11' }, 'HEAD');
    assert.equal(head.status, 206);
    assert.match(head.headers.get('content-type') ?? '', /^multipart\/byteranges; boundary=[0-9a-f]{60}$/);
    assert.equal(head.bytes.length, 0);
    const other = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=0-1,10-11' });
    assert.notEqual(/boundary=(\w+)/.exec(other.headers.get('content-type') ?? '')?.[1], boundary);
    // Each part is a store read: more than 100 ranges in one request get the whole file.
    const many = await get(`/api/v4/files/${big.id}`, alice.token, { Range: `bytes=${Array.from({ length: 101 }, (_, i) => `${i * 10}-${i * 10}`).join(',')}` });
    assert.equal(many.status, 200);
    assert.equal(many.bytes.length, size);
  });

  it('when the copy is current (If-Modified-Since) then 304 without a body; If-Range with another date gets the whole file', async () => {
    const first = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=0-0' });
    const lastModified = first.headers.get('last-modified') ?? '';
    assert.notEqual(lastModified, '');
    const cached = await get(`/api/v4/files/${big.id}`, alice.token, { 'If-Modified-Since': lastModified });
    assert.equal(cached.status, 304);
    assert.equal(cached.bytes.length, 0);
    const older = await get(`/api/v4/files/${big.id}`, alice.token, { 'If-Modified-Since': new Date(Date.parse(lastModified) - 10_000).toUTCString(), Range: 'bytes=0-3' });
    assert.equal(older.status, 206);
    const stillSame = await get(`/api/v4/files/${big.id}`, alice.token, { 'If-Range': lastModified, Range: 'bytes=0-3' });
    assert.equal(stillSame.status, 206);
    const changed = await get(`/api/v4/files/${big.id}`, alice.token, { 'If-Range': new Date(Date.parse(lastModified) - 10_000).toUTCString(), Range: 'bytes=0-3' });
    assert.equal(changed.status, 200);
    assert.equal(changed.bytes.length, big.data.length);
  });

  it('when a thumbnail or preview is asked with a range, then it is served the same way; no thumbnail is still a 400 AppError', async () => {
    const channel = await newChannel(alice, team);
    const png = await upload(alice, channel.id, 'p.png', PICTURES.png);
    const thumb = await get(`/api/v4/files/${png}/thumbnail`, alice.token);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/jpeg');
    const part = await get(`/api/v4/files/${png}/preview`, alice.token, { Range: 'bytes=0-1' });
    assert.equal(part.status, 206);
    assert.deepEqual([...part.bytes], [0xff, 0xd8]);
    const txt = await upload(alice, channel.id, 't.txt', Buffer.from('text'));
    const none = await raw(target.url, 'GET', `/api/v4/files/${txt}/thumbnail`, { token: alice.token, headers: { Range: 'bytes=0-1' } });
    assertAppError(none, 400, 'api.file.get_file_thumbnail.no_thumbnail.app_error');
  });

  it('when someone else asks for an unattached file, with a range or not, or an encoded path, then no byte is served', async () => {
    const asked: Record<string, string>[] = [{}, { Range: 'bytes=0-9' }, { 'If-Modified-Since': new Date().toUTCString() }];
    for (const headers of asked) {
      assertAppError(await raw(target.url, 'GET', `/api/v4/files/${big.id}`, { token: bob.token, headers }), 403, 'api.context.permissions.app_error');
    }
    assertAppError(await raw(target.url, 'GET', `/api/v4/files/${big.id}`, { headers: { Range: 'bytes=0-9' } }), 401, 'api.context.session_expired.app_error');
    for (const path of [`/api/v4/files/%2e%2e%2f${big.id}`, `/api/v4/files/${big.id}%2fthumbnail`, '/api/v4/files/..%2f..%2fetc%2fpasswd']) {
      const res = await rawTarget(target.url, 'GET', path, { token: alice.token });
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      assert.equal(res.headers.get('content-type'), 'application/json', path);
    }
  });

  it('when a client leaves in the middle of a download, then the server goes on serving', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(`${target.url}/api/v4/files/${big.id}`, { headers: { Authorization: `Bearer ${alice.token}` } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
        res.on('error', () => undefined);
      });
      req.on('error', () => undefined);
      req.on('close', () => resolve());
      req.setTimeout(30_000, () => reject(new Error('no answer')));
      req.end();
    });
    const again = await get(`/api/v4/files/${big.id}`, alice.token, { Range: 'bytes=-4' });
    assert.equal(again.status, 206);
    assert.ok(again.bytes.equals(big.data.subarray(-4)));
  });
});
