import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

/** A tiny deterministic PRNG so a failure can be replayed from the printed seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=zz',
  'text/plain',
  'text/',
  '/json',
  ';;;',
  'application/json; charset="unterminated',
  'application/octet-stream',
  '\u00ff\u00fe',
];

function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function deepObject(depth: number): string {
  return `{"text":"x","props":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

describe('POST /hooks/{key} under hostile input', () => {
  let h: HttpHarness;
  let key: string;
  before(async () => {
    h = await httpHarness();
    key = (await h.createHook()).id;
  });
  after(async () => {
    await h.stop();
  });

  it('when 600 random bodies, content types and shapes arrive, then every answer is a 2xx or 4xx JSON error and the app keeps answering', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const generators: (() => Buffer | string)[] = [
      () => randomBytes(Math.floor(random() * 2048)),
      () => Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x90, 0x28, 0xbc]),
      () => Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]),
      () => deepArray(Math.floor(random() * 50_000)),
      () => deepObject(Math.floor(random() * 5_000)),
      () => `payload=${encodeURIComponent(deepObject(200))}`,
      () => `payload=${randomBytes(64).toString('base64')}`,
      () => JSON.stringify({ text: 'x', attachments: [randomBytes(8).toString('hex'), 1, null, { fields: 'nope' }, { fields: [1, 'a', { value: { nested: [1] } }] }] }),
      () => JSON.stringify({ text: { $gt: '' }, channel: ['a'] }),
      () => JSON.stringify({ text: 'x', priority: 'urgent' }),
      () => JSON.stringify({ text: 'x', channel: `@${'a'.repeat(500)}` }),
      () => JSON.stringify({ text: 'x', channel: `#${'\u0000'.repeat(10)}` }),
      () => '{"__proto__":{"polluted":true},"text":"x"}',
      () => '{"text":"x","constructor":{"prototype":{"polluted":true}}}',
      () => '--zz\r\nContent-Disposition: form-data; name="text"\r\n\r\nhello\r\n--zz',
      () => '--zz\r\nContent-Disposition: form-data; name="text"; filename="a.txt"\r\n\r\nfile\r\n--zz--\r\n',
      () => 'x'.repeat(Math.floor(random() * 10_000)),
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 600; i += 1) {
      const contentType = pick(CONTENT_TYPES);
      const res = await h.request('POST', `/hooks/${key}${random() < 0.1 ? '?wait=true&payload=%7B' : ''}`, { raw: pick(generators)(), headers: contentType === undefined ? {} : { 'content-type': contentType } });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      assert.ok(res.statusCode < 500, `seed ${seed}, request ${i}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (res.statusCode >= 400) {
        assert.equal(res.headers['content-type'], 'application/json');
        assert.match((res.json() as { id: string }).id, /\./);
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    assert.ok((statuses.get(400) ?? 0) > 0);
    const alive = await h.request('POST', `/hooks/${key}`, { body: { text: 'still alive' } });
    assert.equal(alive.statusCode, 200);
  });

  it('when a 10 MB body arrives, then 413 without reading it into a post, and the app keeps answering', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'a');
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
      const res = await h.request('POST', `/hooks/${key}`, { raw: big, headers: { 'content-type': contentType } });
      assertError(res, 413, 'api.context.request_body_too_large.app_error', contentType);
    }
    // Multipart may carry files (README "Files on incoming hooks"): a live hook's cap is then MaxFileSize + 512.
    h.setConfig((c) => {
      c.FileSettings.MaxFileSize = 1024 * 1024;
    });
    try {
      const res = await h.request('POST', `/hooks/${key}`, { raw: big, headers: { 'content-type': 'multipart/form-data; boundary=zz' } });
      assertError(res, 413, 'api.file.upload_file.too_large_detailed.app_error', 'multipart');
      const unknown = await h.request('POST', `/hooks/${'x'.repeat(26)}`, { raw: big, headers: { 'content-type': 'multipart/form-data; boundary=zz' } });
      assertError(unknown, 413, 'api.context.request_body_too_large.app_error', 'multipart to an unknown key');
    } finally {
      h.setConfig((c) => {
        c.FileSettings.MaxFileSize = 104857600;
      });
    }
    const alive = await h.request('POST', `/hooks/${key}`, { body: { text: 'still alive' } });
    assert.equal(alive.statusCode, 200);
  });

  it('when JSON nests deeper than the limit, then 400 parse_data rather than a stack overflow downstream', async () => {
    const res = await h.request('POST', `/hooks/${key}`, { raw: deepObject(100), headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 400);
    assert.equal((res.json() as { id: string }).id, 'model.incoming_hook.parse_data.app_error');
  });
});
