import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { Readable } from 'node:stream';
import { isAppError } from '@switchyard/errors';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp } from '../create-http-app';
import { jsonBody, rawBody } from '../body';
import { sendJson } from '../send-json';
import type { ServiceTransport } from '../transport';

/** A transport that reaches `apps` (by service name), and how to let it go. */
export interface TransportHarness {
  readonly transport: ServiceTransport;
  close(): Promise<void>;
}

export type TransportHarnessFactory = (apps: Readonly<Record<string, RequestListener>>) => Promise<TransportHarness>;

const BIG = Buffer.alloc(600_000, 'y');

/** What the streaming route saw of its last request (shared with the test, which runs in this process). */
interface StreamSeen {
  reads: number;
  failed: boolean;
  completed: boolean;
}
const seen: StreamSeen = { reads: 0, failed: false, completed: false };

/** What the waiting route saw. */
const waitSeen = { waiting: 0, closedEarly: 0, release: (): void => undefined };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A source of `total` random-looking bytes made only when read, counting what it produced. */
function countingSource(total: number, chunk = 64 * 1024, failAt?: number): { stream: Readable; produced: () => number; hash: () => string } {
  let produced = 0;
  const hash = createHash('sha256');
  const block = randomBytes(chunk);
  const stream = new Readable({
    read() {
      if (failAt !== undefined && produced >= failAt) {
        this.destroy(new Error('source failed'));
        return;
      }
      if (produced >= total) {
        this.push(null);
        return;
      }
      const part = block.subarray(0, Math.min(chunk, total - produced));
      produced += part.length;
      hash.update(part);
      this.push(part);
    },
  });
  return { stream, produced: () => produced, hash: () => hash.digest('hex') };
}

/** The service every case calls: a createHttpApp app, as each Switchyard service is. */
function echoService(): RequestListener {
  const http = createHttpApp({ service: 'echo', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }), trustRequestId: true });
  http.app.post('/echo/json', rawBody(() => 1_000_000), jsonBody, (req, res) =>
    sendJson(res, 201, { method: req.method, url: req.originalUrl, body: req.body ?? null, custom: req.headers['x-custom'] ?? null, length: req.headers['content-length'] ?? null }),
  );
  http.app.put('/echo/raw', rawBody(() => 1_000_000), (req, res) => {
    res.status(200).type('application/octet-stream').end(req.rawBody);
  });
  http.app.get('/headers', (_req, res) => {
    res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
    res.setHeader('X-Answer', 'yes');
    res.status(202).end('ok');
  });
  http.app.get('/empty', (_req, res) => {
    res.status(204).end();
  });
  http.app.get('/big', (_req, res) => {
    res.write(BIG.subarray(0, 200_000));
    setImmediate(() => res.end(BIG.subarray(200_000)));
  });
  // Reads the body as it streams (the first chunk, a pause, then the rest), answering its length and SHA-256.
  http.app.post('/echo/stream', (req, res) => {
    Object.assign(seen, { reads: 0, failed: false, completed: false });
    const hash = createHash('sha256');
    let length = 0;
    let paused = false;
    req.on('data', (chunk: Buffer) => {
      seen.reads += 1;
      length += chunk.length;
      hash.update(chunk);
      if (!paused && req.headers['x-pause'] !== undefined) {
        paused = true;
        req.pause();
        setTimeout(() => req.resume(), Number(req.headers['x-pause']));
      }
    });
    req.on('error', () => {
      seen.failed = true;
    });
    req.on('aborted', () => {
      seen.failed = true;
    });
    req.on('end', () => {
      seen.completed = true;
      sendJson(res, 200, { length, sha256: hash.digest('hex'), framing: req.headers['content-length'] !== undefined ? 'length' : 'chunked' });
    });
  });
  // A long-poll: answers only when released; records whether its response closed before that (the client left).
  http.app.get('/wait', (_req, res) => {
    waitSeen.waiting += 1;
    res.once('close', () => {
      if (!res.writableEnded) waitSeen.closedEarly += 1;
    });
    waitSeen.release = () => {
      if (!res.destroyed) sendJson(res, 200, { waited: true });
    };
  });
  // Answers without reading the body.
  http.app.post('/echo/early', (_req, res) => sendJson(res, 403, { early: true }));
  http.app.get('/*rest', (req, res) => sendJson(res, 200, { url: req.originalUrl }));
  return http.finalize() as unknown as RequestListener;
}

/**
 * What every `ServiceTransport` (the in-process one of the embedded runtime, the HTTP one of the
 * distributed runtime) must do, as the gateway and the services rely on it.
 */
export function serviceTransportContract(name: string, factory: TransportHarnessFactory): void {
  describe(`ServiceTransport contract: ${name}`, () => {
    const withTransport = async (run: (transport: ServiceTransport) => Promise<void>): Promise<void> => {
      const harness = await factory({ echo: echoService() });
      try {
        await run(harness.transport);
      } finally {
        await harness.close();
      }
    };

    it('when a request has a method, a path with a query, headers and a JSON body, then the service gets each unchanged and its answer comes back', async () => {
      await withTransport(async (transport) => {
        const body = Buffer.from(JSON.stringify({ message: 'héllo', n: 1 }));
        const res = await transport.send('echo', { method: 'POST', path: '/echo/json?x=1&y=%20z', headers: { 'content-type': 'application/json', 'X-Custom': 'v' }, body });
        assert.equal(res.status, 201);
        assert.equal(res.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(res.body.toString('utf8')), { method: 'POST', url: '/echo/json?x=1&y=%20z', body: { message: 'héllo', n: 1 }, custom: 'v', length: String(body.length) });
      });
    });

    it('when a target holds encoded characters and dot segments, then the service sees it exactly as sent', async () => {
      await withTransport(async (transport) => {
        for (const path of ['/api/v4/x/%2e%2e/users', '/a/../b', '/a/%2Fb?q=%2e']) {
          const res = await transport.send('echo', { method: 'GET', path, headers: {} });
          assert.equal(res.status, 200, path);
          assert.equal((JSON.parse(res.body.toString('utf8')) as { url: string }).url, path);
        }
      });
    });

    it('when a body is binary and large, then it arrives and returns byte for byte', async () => {
      await withTransport(async (transport) => {
        const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 256));
        const res = await transport.send('echo', { method: 'PUT', path: '/echo/raw', headers: { 'content-type': 'application/octet-stream' }, body });
        assert.equal(res.status, 200);
        assert.ok(res.body.equals(body));
      });
    });

    it('when the service answers in several writes, then the whole body comes back', async () => {
      await withTransport(async (transport) => {
        const res = await transport.send('echo', { method: 'GET', path: '/big', headers: {} });
        assert.equal(res.status, 200);
        assert.ok(res.body.equals(BIG));
      });
    });

    it('when the service sets headers, then they come back lower-cased, a repeated one as a list', async () => {
      await withTransport(async (transport) => {
        const res = await transport.send('echo', { method: 'GET', path: '/headers', headers: {} });
        assert.equal(res.status, 202);
        assert.equal(res.headers['x-answer'], 'yes');
        assert.deepEqual(res.headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/']);
        assert.match(String(res.headers['x-request-id']), /^[a-z0-9]{26}$/);
        assert.equal(res.body.toString('utf8'), 'ok');
      });
    });

    it('when the service answers 204 or the request is HEAD, then the body is empty', async () => {
      await withTransport(async (transport) => {
        assert.equal((await transport.send('echo', { method: 'GET', path: '/empty', headers: {} })).body.length, 0);
        const head = await transport.send('echo', { method: 'HEAD', path: '/anything', headers: {} });
        assert.equal(head.status, 200);
        assert.equal(head.body.length, 0);
      });
    });

    it('when a body is a stream, with or without a length, then the service reads it as it comes and gets every byte', async () => {
      await withTransport(async (transport) => {
        for (const withLength of [true, false]) {
          const source = countingSource(3_000_000);
          const res = await transport.send('echo', {
            method: 'POST',
            path: '/echo/stream',
            headers: { 'content-type': 'application/octet-stream' },
            body: source.stream,
            ...(withLength ? { bodyLength: 3_000_000 } : {}),
          });
          assert.equal(res.status, 200);
          const answer = JSON.parse(res.body.toString('utf8')) as { length: number; sha256: string; framing: string };
          assert.deepEqual(answer, { length: 3_000_000, sha256: source.hash(), framing: withLength ? 'length' : 'chunked' });
          assert.ok(seen.reads > 1, 'read in several chunks, not handed over whole');
        }
      });
    });

    it('when the service pauses reading a streamed body, then the source is not read far ahead of it (backpressure)', async () => {
      await withTransport(async (transport) => {
        const total = 64 * 1024 * 1024;
        const source = countingSource(total);
        const call = transport.send('echo', { method: 'POST', path: '/echo/stream', headers: { 'x-pause': '300' }, body: source.stream, bodyLength: total });
        await sleep(200);
        // In process nothing buffers; over a socket, the kernel's and the client's buffers (a few MB on loopback).
        assert.ok(source.produced() < 16 * 1024 * 1024, `produced ${source.produced()} bytes while the service was paused`);
        const res = await call;
        assert.equal(res.status, 200);
        assert.equal((JSON.parse(res.body.toString('utf8')) as { length: number }).length, total);
      });
    });

    it('when a streamed body fails midway, then the call fails and the service never sees the body end', async () => {
      await withTransport(async (transport) => {
        const source = countingSource(5_000_000, 64 * 1024, 1_000_000);
        Object.assign(seen, { reads: 0, failed: false, completed: false }); // not the previous test's request
        await assert.rejects(transport.send('echo', { method: 'POST', path: '/echo/stream', headers: {}, body: source.stream, bodyLength: 5_000_000 }));
        // Until the service has seen this request end, one way or the other (bounded: 5 s; a fixed 50 ms failed at load 30).
        for (let i = 0; i < 1000 && !seen.failed && !seen.completed; i += 1) await sleep(5);
        assert.equal(seen.completed, false);
        assert.equal(seen.failed, true);
        const next = await transport.send('echo', { method: 'GET', path: '/after', headers: {} });
        assert.equal(next.status, 200);
      });
    });

    it('when the service answers without reading a streamed body, then its answer comes back and the transport goes on', async () => {
      await withTransport(async (transport) => {
        const source = countingSource(200_000);
        const res = await transport.send('echo', { method: 'POST', path: '/echo/early', headers: {}, body: source.stream, bodyLength: 200_000 });
        assert.equal(res.status, 403);
        assert.deepEqual(JSON.parse(res.body.toString('utf8')), { early: true });
        const next = await transport.send('echo', { method: 'GET', path: '/after', headers: {} });
        assert.equal(next.status, 200);
      });
    });

    it('when the caller aborts its signal while the service waits, then the service sees its response close and the call fails; unaborted, the answer comes', async () => {
      await withTransport(async (transport) => {
        Object.assign(waitSeen, { waiting: 0, closedEarly: 0 });
        const controller = new AbortController();
        const call = transport.send('echo', { method: 'GET', path: '/wait', headers: {}, signal: controller.signal });
        for (let i = 0; i < 200 && waitSeen.waiting < 1; i += 1) await sleep(5);
        assert.equal(waitSeen.waiting, 1);
        controller.abort();
        await assert.rejects(call);
        for (let i = 0; i < 200 && waitSeen.closedEarly < 1; i += 1) await sleep(5);
        assert.equal(waitSeen.closedEarly, 1, 'the service saw its client leave');
        const kept = new AbortController();
        const answered = transport.send('echo', { method: 'GET', path: '/wait', headers: {}, signal: kept.signal });
        for (let i = 0; i < 200 && waitSeen.waiting < 2; i += 1) await sleep(5);
        waitSeen.release();
        const res = await answered;
        assert.deepEqual(JSON.parse(res.body.toString('utf8')), { waited: true });
        kept.abort();
        assert.equal(waitSeen.closedEarly, 1, 'aborting after the answer changes nothing');
      });
    });

    it('when the service is unknown, then the call fails with a 503 AppError', async () => {
      await withTransport(async (transport) => {
        await assert.rejects(transport.send('nobody', { method: 'GET', path: '/', headers: {} }), (error: unknown) => isAppError(error) && error.statusCode === 503);
      });
    });
  });
}
