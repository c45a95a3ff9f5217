import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp } from '../create-http-app';
import type { InternalResponse, ServiceTransport } from '../transport';
import type { TransportHarnessFactory } from './service-transport.contract';

/** What the download route's source did (shared with the test, which runs in this process). */
const source = { produced: 0, closed: false, hash: '' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `total` bytes made only when read (64 KiB at a time), failing at `failAt` when given. */
function bytes(total: number, failAt?: number): Readable {
  Object.assign(source, { produced: 0, closed: false, hash: '' });
  const hash = createHash('sha256');
  const block = randomBytes(64 * 1024);
  const stream = new Readable({
    read() {
      if (failAt !== undefined && source.produced >= failAt) {
        this.destroy(new Error('source failed'));
        return;
      }
      if (source.produced >= total) {
        source.hash = hash.digest('hex');
        this.push(null);
        return;
      }
      const part = block.subarray(0, Math.min(block.length, total - source.produced));
      source.produced += part.length;
      hash.update(part);
      this.push(part);
    },
  });
  stream.once('close', () => {
    source.closed = true;
  });
  return stream;
}

/** A service answering downloads as posts does: headers, then the bytes piped from a source. */
function downloadService(): RequestListener {
  const http = createHttpApp({ service: 'files', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }), trustRequestId: true });
  http.app.get('/download', async (req, res) => {
    const size = Number(req.query.size ?? '0');
    const failAt = req.query.fail === undefined ? undefined : Number(req.query.fail);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', size);
    res.status(200);
    await pipeline(bytes(size, failAt), res).catch(() => undefined);
  });
  http.app.get('/small', (_req, res) => {
    res.status(202).type('text/plain').end('small answer');
  });
  return http.finalize() as unknown as RequestListener;
}

async function readAll(stream: Readable): Promise<{ length: number; sha256: string }> {
  const hash = createHash('sha256');
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { length, sha256: hash.digest('hex') };
}

/** ServiceTransport with `streamResponse`: what the gateway relies on to pass downloads on without holding them. */
export function streamedResponseContract(name: string, factory: TransportHarnessFactory): void {
  describe(`ServiceTransport streamed answers: ${name}`, () => {
    const withTransport = async (run: (transport: ServiceTransport) => Promise<void>): Promise<void> => {
      const harness = await factory({ files: downloadService() });
      try {
        await run(harness.transport);
      } finally {
        await harness.close();
      }
    };
    const download = (transport: ServiceTransport, query: string, method = 'GET'): Promise<InternalResponse> =>
      transport.send('files', { method, path: `/download?${query}`, headers: {}, streamResponse: true });

    it('when an answer is asked as a stream, then its head comes first and the body follows byte for byte', async () => {
      await withTransport(async (transport) => {
        const res = await download(transport, 'size=5000000');
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-length'], '5000000');
        assert.equal(res.body.length, 0);
        assert.ok(res.stream, 'a stream');
        assert.deepEqual(await readAll(res.stream), { length: 5_000_000, sha256: source.hash });
        const small = await transport.send('files', { method: 'GET', path: '/small', headers: {}, streamResponse: true });
        assert.equal(small.status, 202);
        assert.equal((await readAll(small.stream as Readable)).length, 'small answer'.length);
      });
    });

    it('when the caller does not read, then the service is not let far ahead of it (backpressure)', async () => {
      await withTransport(async (transport) => {
        const total = 64 * 1024 * 1024;
        const res = await download(transport, `size=${total}`);
        await sleep(300);
        // In process nothing buffers beyond a chunk or two; over a socket, the kernel's and the client's buffers.
        assert.ok(source.produced < 16 * 1024 * 1024, `produced ${source.produced} bytes while nobody read`);
        assert.deepEqual(await readAll(res.stream as Readable), { length: total, sha256: source.hash });
      });
    });

    it('when the caller destroys the stream midway, then the service stops and its source is closed, and the transport goes on', async () => {
      await withTransport(async (transport) => {
        const res = await download(transport, `size=${64 * 1024 * 1024}`);
        const stream = res.stream as Readable;
        // Paused mode: one chunk read, then the reader leaves (a flowing stream without a listener would drain it).
        await new Promise<void>((resolve) => stream.once('readable', () => resolve()));
        assert.ok(stream.read() !== null);
        stream.destroy();
        for (let i = 0; i < 50 && !source.closed; i += 1) await sleep(20);
        assert.equal(source.closed, true);
        assert.ok(source.produced < 32 * 1024 * 1024, `produced ${source.produced} bytes after the caller left`);
        const next = await download(transport, 'size=1000');
        assert.equal((await readAll(next.stream as Readable)).length, 1000);
      });
    });

    it('when the service fails midway, then the stream fails and never ends cleanly', async () => {
      await withTransport(async (transport) => {
        const res = await download(transport, `size=5000000&fail=1000000`);
        assert.equal(res.status, 200);
        await assert.rejects(readAll(res.stream as Readable));
      });
    });

    it('when the request is HEAD, then the head comes with an empty stream', async () => {
      await withTransport(async (transport) => {
        const res = await download(transport, 'size=3000', 'HEAD');
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-length'], '3000');
        assert.equal((await readAll(res.stream as Readable)).length, 0);
      });
    });
  });
}
