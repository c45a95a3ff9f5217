import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import express from 'express';
import { inject } from 'light-my-request';
import { smallFormUpload, type SmallFormErrors } from './small-form';

class FormRefusal extends Error {
  constructor(readonly kind: string, detail = '') {
    super(`${kind} ${detail}`);
  }
}
const ERRORS: SmallFormErrors = { tooLarge: () => new FormRefusal('too_large'), parse: (detail) => new FormRefusal('parse', detail) };
const LIMIT = 4096;

/** One route that answers what smallFormUpload read, or which refusal it raised. */
function app(): express.Express {
  const server = express();
  server.post('/upload', async (req, res) => {
    try {
      const form = await smallFormUpload(req, res, { limit: LIMIT, fileField: 'image', fieldNames: ['emoji'], maxFiles: 4, errors: ERRORS })();
      res.json({ fields: Object.fromEntries(form.fields), file: form.file?.toString('latin1') ?? null });
    } catch (error) {
      res.status(400).json({ refused: error instanceof FormRefusal ? error.kind : String(error) });
    }
  });
  return server;
}

/** A multipart body as a browser would send it. */
async function multipart(parts: [name: string, value: string | Blob, filename?: string][]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

async function upload(body: { payload: Buffer | string; headers: Record<string, string> }): Promise<unknown> {
  const response = await inject(app(), { method: 'POST', url: '/upload', ...body });
  return response.json();
}

describe('smallFormUpload', () => {
  it('keeps the first file part of its name and the first value of each named field, skipping the rest', async () => {
    const body = await multipart([
      ['other', new Blob(['not this']), 'a.bin'],
      ['emoji', 'party'],
      ['emoji', 'second'],
      ['ignored', 'x'],
      ['image', new Blob(['first image']), 'a.png'],
      ['image', new Blob(['second image']), 'b.png'],
    ]);
    assert.deepEqual(await upload(body), { fields: { emoji: 'party' }, file: 'first image' });
  });

  it('answers no file when the form has none', async () => {
    assert.deepEqual(await upload(await multipart([['emoji', 'party']])), { fields: { emoji: 'party' }, file: null });
  });

  it('refuses a declared or streamed body over the limit as too large', async () => {
    const body = await multipart([['image', new Blob(['x'.repeat(LIMIT + 1)]), 'big.png']]);
    assert.deepEqual(await upload(body), { refused: 'too_large' });
    const undeclared = await inject(app(), { method: 'POST', url: '/upload', headers: { ...body.headers, 'transfer-encoding': 'chunked' }, payload: body.payload });
    assert.deepEqual(undeclared.json(), { refused: 'too_large' });
  });

  it('refuses a body that is not multipart, and a truncated one, as a parse error without crashing', async () => {
    assert.deepEqual(await upload({ payload: '{"a":1}', headers: { 'content-type': 'application/json' } }), { refused: 'parse' });
    const body = await multipart([['image', new Blob(['abcdef']), 'a.png']]);
    assert.deepEqual(await upload({ payload: body.payload.subarray(0, body.payload.length - 20), headers: body.headers }), { refused: 'parse' });
  });
});
