import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import { patchConfig, type AdminSession } from './support/fixtures';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface Answer {
  status: number;
  json: Record<string, unknown> | undefined;
}

const CHUNK = randomBytes(64 * 1024);

/**
 * Sends `head`, then `size` bytes in 64 KiB writes (each after the previous one left), then `tail`; with
 * `length` the request declares a Content-Length, else it is chunked. Settles on the answer: a server that
 * answers before the end (a cap, a refusal) is not waited for, and a reset after its answer is ignored.
 */
function streamUpload(url: string, token: string, headers: Record<string, string>, parts: { head?: Buffer; size: number; tail?: Buffer; length?: number }): Promise<Answer & { sha256: string }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let answered = false;
    const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, ...headers, ...(parts.length !== undefined ? { 'Content-Length': String(parts.length) } : {}) } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined, sha256: hash.digest('hex') });
      });
      res.on('error', reject);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (parts.head) req.write(parts.head);
    let sent = 0;
    const pump = (): void => {
      if (answered || req.destroyed) return;
      if (sent >= parts.size) {
        req.end(parts.tail);
        return;
      }
      const piece = CHUNK.subarray(0, Math.min(CHUNK.length, parts.size - sent));
      sent += piece.length;
      hash.update(piece);
      req.write(piece, () => setImmediate(pump));
    };
    pump();
  });
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** A multipart body around one file whose bytes are streamed between `head` and `tail`. */
function multipartAround(channelId: string, filename: string): { head: Buffer; tail: Buffer; contentType: string } {
  const boundary = `sy${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="channel_id"\r\n\r\n${channelId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return { head, tail: Buffer.from(`\r\n--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('files: uploads stream end to end (no body held whole)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'sa');
    bob = await teamMember(target.url, admin, team, 'sb');
  });
  after(async () => {
    await patchConfig(admin.client, { FileSettings: { MaxFileSize: 104857600 } }).catch(() => undefined);
    await target?.stop();
  });

  const download = async (id: unknown): Promise<Buffer> => {
    const res = await fetch(`${target.url}/api/v4/files/${String(id)}`, { headers: { Authorization: `Bearer ${alice.token}` }, signal: AbortSignal.timeout(60_000) });
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  };

  it('when a large file streams in chunked (no Content-Length), raw or multipart, then it is stored whole and reads back byte for byte', async () => {
    const channel = await newChannel(alice, team);
    const size = 24 * 1024 * 1024 + 123;
    const raw = await streamUpload(`${target.url}/api/v4/files?channel_id=${channel.id}&filename=big.bin`, alice.token, { 'Content-Type': 'application/octet-stream' }, { size });
    assert.equal(raw.status, 201, JSON.stringify(raw.json));
    const rawInfo = (raw.json?.file_infos as Record<string, unknown>[])[0];
    assert.equal(rawInfo?.size, size);
    assert.equal(sha256(await download(rawInfo?.id)), raw.sha256);

    const m = multipartAround(channel.id, 'streamed.bin');
    const multi = await streamUpload(`${target.url}/api/v4/files`, alice.token, { 'Content-Type': m.contentType }, { head: m.head, size: 8 * 1024 * 1024, tail: m.tail });
    assert.equal(multi.status, 201, JSON.stringify(multi.json));
    const multiInfo = (multi.json?.file_infos as Record<string, unknown>[])[0];
    assert.equal(multiInfo?.size, 8 * 1024 * 1024);
    assert.equal(sha256(await download(multiInfo?.id)), multi.sha256);
  });

  it('when someone without upload_file streams a large body, then 403 before the body is taken', async () => {
    const channel = await newChannel(alice, team, 'P');
    const raw = await streamUpload(`${target.url}/api/v4/files?channel_id=${channel.id}&filename=x.bin`, bob.token, { 'Content-Type': 'application/octet-stream' }, { size: 50 * 1024 * 1024 });
    assert.equal(raw.status, 403);
    assert.equal(raw.json?.id, 'api.context.permissions.app_error');
    const m = multipartAround(channel.id, 'x.bin');
    const multi = await streamUpload(`${target.url}/api/v4/files`, bob.token, { 'Content-Type': m.contentType }, { head: m.head, size: 50 * 1024 * 1024, tail: m.tail });
    assert.equal(multi.status, 403);
  });
  it('when a streamed body passes MaxFileSize, declared or not, raw or multipart, then 413 too_large_detailed', async () => {
    const channel = await newChannel(alice, team);
    await patchConfig(admin.client, { FileSettings: { MaxFileSize: 1_000_000 } });
    try {
      const rawUrl = `${target.url}/api/v4/files?channel_id=${channel.id}&filename=big.bin`;
      const octet = { 'Content-Type': 'application/octet-stream' };
      const m = multipartAround(channel.id, 'big.bin');
      const cases: [string, Promise<Answer>][] = [
        ['raw, chunked', streamUpload(rawUrl, alice.token, octet, { size: 3_000_000 })],
        ['raw, declared', streamUpload(rawUrl, alice.token, octet, { size: 3_000_000, length: 3_000_000 })],
        ['raw, declared just over the file cap', streamUpload(rawUrl, alice.token, octet, { size: 1_000_100, length: 1_000_100 })],
        ['multipart, chunked', streamUpload(`${target.url}/api/v4/files`, alice.token, { 'Content-Type': m.contentType }, { head: m.head, size: 3_000_000, tail: m.tail })],
      ];
      for (const [name, answer] of cases) {
        const res = await answer;
        assert.equal(res.status, 413, `${name}: ${JSON.stringify(res.json)}`);
        assert.equal(res.json?.id, 'api.file.upload_file.too_large_detailed.app_error', name);
      }
      // At the cap the upload still works.
      const ok = await streamUpload(rawUrl, alice.token, octet, { size: 1_000_000 });
      assert.equal(ok.status, 201, JSON.stringify(ok.json));
    } finally {
      await patchConfig(admin.client, { FileSettings: { MaxFileSize: 104857600 } });
    }
  });

});
