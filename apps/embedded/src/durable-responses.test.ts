import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerWhenDurable } from './durable-responses';

async function serve(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('answerWhenDurable', () => {
  it('when the handler has answered, then nothing reaches the client before the flush resolves', async () => {
    let release: () => void = () => undefined;
    const flushed = new Promise<void>((resolve) => (release = resolve));
    let handled = false;
    const server = await serve(
      answerWhenDurable((_req, res) => {
        handled = true;
        res.statusCode = 201;
        res.write('{"a":');
        res.end('1}');
      }, () => flushed),
    );
    let answered = false;
    const response = fetch(server.url).then(async (res) => {
      answered = true;
      return { status: res.status, body: await res.text() };
    });
    while (!handled) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, 'answer held back until the flush');
    release();
    assert.deepEqual(await response, { status: 201, body: '{"a":1}' });
    await server.close();
  });

  it('when the flush fails, then the client gets a 500 error object instead of the answer', async () => {
    const server = await serve(
      answerWhenDurable((_req, res) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', 'text/plain');
        res.end('ok');
      }, () => Promise.reject(new Error('EIO'))),
    );
    const res = await fetch(server.url);
    assert.equal(res.status, 500);
    const body = (await res.json()) as { id: string; status_code: number };
    assert.equal(body.id, 'app.store.write_failed.app_error');
    assert.equal(body.status_code, 500);
    await server.close();
  });
});
