import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUserSession, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, type RawResponse } from './support/http';
import { imageForm, PICTURES } from './support/pictures';
import type { Target } from './support/target';

const BOUNDARY = 'sy-attack-boundary';
const PARSE = 'api.user.upload_profile_user.parse.app_error';
const NO_FILE = 'api.user.upload_profile_user.no_file.app_error';

/** A multipart body built byte for byte: each part's Content-Disposition parameters and data as given. */
function multipart(parts: readonly { readonly disposition: string; readonly type?: string; readonly data: Buffer | string }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${part.disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`, 'latin1'));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data) : part.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const imagePart = (data: Buffer = PICTURES.png) => ({ disposition: 'name="image"; filename="a.png"', type: 'image/png', data });

describe('attacks on picture uploads', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  const send = async (method: string, path: string, token: string, body?: FormData | Buffer | ReadableStream<Uint8Array>, contentType?: string): Promise<RawResponse & { bytes: Buffer }> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(contentType ? { 'Content-Type': contentType } : {}) };
    const init = { method, headers, body, signal: AbortSignal.timeout(30_000), ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit;
    const response = await fetch(`${target.url}${path}`, init);
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, json, cookies: [], bytes };
  };
  const form = (parts: Parameters<typeof multipart>[0]) => [multipart(parts), `multipart/form-data; boundary=${BOUNDARY}`] as const;

  it('when one user uploads three different pictures at once, then all answer 200 and the stored picture is exactly one of them, a 128×128 PNG, then the next upload wins', async () => {
    const user = await createUserSession(target.url, admin.client, 'race');
    const path = `/api/v4/users/${user.user.id}/image`;
    const picture = async () => (await send('GET', path, user.token)).bytes;
    // What each upload alone stores.
    const alone = new Map<string, string>();
    for (const [format, data] of Object.entries(PICTURES)) {
      assert.equal((await send('POST', path, user.token, imageForm(data, `a.${format}`, `image/${format}`))).status, 200);
      alone.set((await picture()).toString('base64'), format);
    }
    assert.equal(alone.size, 3, 'the three fixtures store three different pictures');

    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => {
      const [format, data] = Object.entries(PICTURES)[i % 3] ?? ['png', PICTURES.png];
      return send('POST', path, user.token, imageForm(data, `a.${format}`, `image/${format}`));
    }));
    assert.deepEqual(answers.map((a) => a.status), Array(9).fill(200), answers.map((a) => a.text).join(' | '));
    const stored = await picture();
    assert.ok(alone.has(stored.toString('base64')), 'the stored picture is one whole upload, not a mix');
    assert.equal(stored.readUInt32BE(16), 128, 'width');
    assert.equal(stored.readUInt32BE(20), 128, 'height');
    assert.deepEqual(await picture(), stored, 'stable');

    const next = alone.get(stored.toString('base64')) === 'gif' ? 'png' : 'gif';
    assert.equal((await send('POST', path, user.token, imageForm(PICTURES[next], `a.${next}`, `image/${next}`))).status, 200);
    assert.equal(alone.get((await picture()).toString('base64')), next, 'the last upload wins');
  });

  it('when the multipart body is hostile (many parts, a huge or deeply nested field name, no filename, wrong or missing content type, no boundary), then 400 parse or no_file at once, never 5xx', async () => {
    const user = await createUserSession(target.url, admin.client, 'mp');
    const path = `/api/v4/users/${user.user.id}/image`;
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ disposition: `name="f${i}"`, data: 'x' }));
    const cases: [string, Buffer, string, readonly string[]][] = [
      ['5,000 fields before the image', ...form([...fields(5_000), imagePart()]), [NO_FILE, PARSE]],
      ['5,000 files before the image', ...form([...Array.from({ length: 5_000 }, (_, i) => ({ disposition: `name="g${i}"; filename="g.png"`, type: 'image/png', data: 'x' })), imagePart()]), [NO_FILE, PARSE]],
      ['a 200 KB field name', ...form([{ disposition: `name="${'n'.repeat(200_000)}"`, data: 'x' }, imagePart()]), [NO_FILE, PARSE]],
      ['a deeply nested field name', ...form([{ disposition: `name="image${'[a]'.repeat(20_000)}"; filename="a.png"`, type: 'image/png', data: PICTURES.png }]), [NO_FILE, PARSE]],
      ['image without a filename', ...form([{ disposition: 'name="image"', type: 'image/png', data: PICTURES.png }]), [NO_FILE]],
      ['image bytes as image/png, not multipart', PICTURES.png, 'image/png', [PARSE]],
      ['JSON', Buffer.from('{"image":"x"}'), 'application/json', [PARSE]],
      ['multipart without a boundary', multipart([imagePart()]), 'multipart/form-data', [PARSE]],
      ['a boundary that never closes', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n`), `multipart/form-data; boundary=${BOUNDARY}`, [NO_FILE, PARSE]],
    ];
    for (const [what, body, type, ids] of cases) {
      const answer = await send('POST', path, user.token, body, type);
      assert.equal(answer.status, 400, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
      assert.ok(ids.includes((answer.json as { id: string }).id), `${what}: ${(answer.json as { id: string }).id}`);
    }
    // The image first, then a flood of fields: the image is what counts.
    const [body, type] = form([imagePart(), ...fields(5_000)]);
    const first = await send('POST', path, user.token, body, type);
    assert.equal(first.status, 200, `${first.status} ${first.text.slice(0, 200)}`);
  });

  it('when an oversized body streams with no Content-Length, then 413 too_large, as with a declared one', async () => {
    const user = await createUserSession(target.url, admin.client, 'big');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(multipart([imagePart()]).subarray(0, 200));
        else if (sent > 11 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(256 * 1024));
        sent += 256 * 1024;
      },
    });
    const answer = await send('POST', `/api/v4/users/${user.user.id}/image`, user.token, stream, `multipart/form-data; boundary=${BOUNDARY}`);
    assertAppError(answer, 413, 'api.user.upload_profile_user.too_large.app_error');
  });
});
