import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, InProcessTransport, jsonBody, rawBody, sendJson } from './index';
import { dispatchInProcess } from './in-process-dispatch';

function service() {
  const http = createHttpApp({ service: 't', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.post('/echo', rawBody(() => 100), jsonBody, (req, res) =>
    sendJson(res, 201, { body: req.body ?? null, url: req.originalUrl, headers: req.headers, ip: req.ip ?? null, protocol: req.protocol }),
  );
  http.app.get('/echo', (req, res) => sendJson(res, 200, { url: req.originalUrl, query: req.query, headers: req.headers }));
  http.app.get('/empty', (_req, res) => {
    res.status(204).end();
  });
  http.app.get('/head-aware', (_req, res) => sendJson(res, 200, { some: 'body' }));
  http.app.get('/write-head', (_req, res) => {
    res.setHeader('x-one', '1');
    res.writeHead(202, { 'x-two': ['a', 'b'], 'content-type': 'text/plain' });
    res.write('part one, ');
    res.end(Buffer.from('part two'));
  });
  http.app.get('/destroyed', (_req, res) => {
    res.destroy();
  });
  return http.finalize();
}

test('when a request is dispatched in process, then the service sees the body, a content-length, default host and user-agent, and 127.0.0.1', async () => {
  const transport = new InProcessTransport({ t: service() });
  const res = await transport.send('t', { method: 'POST', path: '/echo?x=1', headers: { 'content-type': 'application/json', 'x-multi': ['a', 'b'], 'x-none': undefined }, body: Buffer.from('{"a":1}') });
  assert.equal(res.status, 201);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(typeof res.headers['x-request-id'], 'string');
  assert.equal(typeof res.headers.date, 'string');
  const json = JSON.parse(res.body.toString('utf8')) as { body: unknown; url: string; headers: Record<string, string>; ip: string; protocol: string };
  assert.deepEqual(json.body, { a: 1 });
  assert.equal(json.url, '/echo?x=1');
  assert.equal(json.headers['content-length'], '7');
  assert.equal(json.headers.host, 'localhost:80');
  assert.equal(json.headers['user-agent'], 'lightMyRequest');
  assert.equal(json.headers['x-multi'], 'a, b');
  assert.equal('x-none' in json.headers, false);
  assert.equal(json.ip, '127.0.0.1');
  assert.equal(json.protocol, 'http');
});

test('when the handed body is over the service limit, then 413 request_body_too_large', async () => {
  const transport = new InProcessTransport({ t: service() });
  const res = await transport.send('t', { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ a: 'x'.repeat(200) })) });
  assert.equal(res.status, 413);
  assert.equal((JSON.parse(res.body.toString('utf8')) as { id: string }).id, 'api.context.request_body_too_large.app_error');
});

test('when a handler reads the request as a stream, then it gets the whole body and the end', async () => {
  const app = express();
  app.post('/stream', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => res.end(`got ${Buffer.concat(chunks).toString('utf8')}`));
  });
  const res = await dispatchInProcess(app, { method: 'POST', path: '/stream', headers: {}, body: Buffer.from('hello') });
  assert.equal(res.body.toString('utf8'), 'got hello');
});

test('when paths carry dot segments, escapes, double slashes or an empty query, then the service sees them exactly as given', async () => {
  const app = express();
  app.use((req, res) => {
    res.json({ url: req.url, originalUrl: req.originalUrl });
  });
  const transport = new InProcessTransport({ t: app });
  for (const path of [
    '/api/v4/users/me',
    '/api/v4/users?page=1&per_page=2',
    '/api/v4/users/../teams',
    '/api/v4/users/%2e%2e/%2E%2E/%2e%2e/internal/v1/config',
    '/api/v4/posts/.%2e/x',
    '/a?',
    '//evil/x',
    '/a%2fb%5Cc',
  ]) {
    const res = await transport.send('t', { method: 'GET', path, headers: {} });
    assert.deepEqual(JSON.parse(res.body.toString('utf8')), { url: path, originalUrl: path }, path);
  }
});

test('when a target is not a path or has characters no HTTP client sends, then the call is refused instead of repaired', async () => {
  const transport = new InProcessTransport({ t: service() });
  for (const path of ['api/v4/users', 'http://other/x', '/a b', '/a\nb', '/\u0100']) {
    await assert.rejects(transport.send('t', { method: 'GET', path, headers: {} }), /request target/, path);
  }
});

test('when the answer is 204 or the request is HEAD, then the body is empty but the headers stay', async () => {
  const transport = new InProcessTransport({ t: service() });
  const empty = await transport.send('t', { method: 'GET', path: '/empty', headers: {} });
  assert.equal(empty.status, 204);
  assert.equal(empty.body.length, 0);
  const head = await transport.send('t', { method: 'HEAD', path: '/head-aware', headers: {} });
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.headers['content-length'], String(Buffer.byteLength('{"some":"body"}')));
});

test('when a handler uses writeHead with headers and several writes, then status, merged headers and the whole body come back', async () => {
  const transport = new InProcessTransport({ t: service() });
  const res = await transport.send('t', { method: 'GET', path: '/write-head', headers: {} });
  assert.equal(res.status, 202);
  assert.equal(res.headers['x-one'], '1');
  assert.deepEqual(res.headers['x-two'], ['a', 'b']);
  assert.equal(res.headers['content-type'], 'text/plain');
  assert.equal(res.body.toString('utf8'), 'part one, part two');
});

test('when a handler destroys the response, then the call is rejected', async () => {
  const transport = new InProcessTransport({ t: service() });
  await assert.rejects(transport.send('t', { method: 'GET', path: '/destroyed', headers: {} }), /destroyed before completion/);
});

test('when the listener is a plain node handler, then finish and close are emitted on the response', async () => {
  const events: string[] = [];
  const app = (_req: IncomingMessage, res: ServerResponse): void => {
    res.on('finish', () => events.push('finish'));
    res.on('close', () => events.push('close'));
    res.statusCode = 200;
    res.end('ok');
  };
  const res = await dispatchInProcess(app, { method: 'GET', path: '/', headers: {} });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(res.body.toString('utf8'), 'ok');
  assert.deepEqual(events, ['finish', 'close']);
});

test('when an unknown service is called, then 503 server_busy', async () => {
  const transport = new InProcessTransport({});
  await assert.rejects(transport.send('nope', { method: 'GET', path: '/', headers: {} }), (error: { statusCode?: number }) => error.statusCode === 503);
});

test('when an app with its own prototypes is dispatched to, then its requests and responses are born with them (express swaps nothing)', async () => {
  const app = service();
  const seen: boolean[] = [];
  type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  const handle = (app as unknown as { handle: Handle }).handle.bind(app);
  // app(req, res) calls app.handle first, before express's own setPrototypeOf: what the dispatcher built.
  Object.assign(app, {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown): void => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
      handle(req, res, next);
    },
  });
  const answer = await dispatchInProcess(app, { method: 'GET', path: '/echo?a=1', headers: {} });
  assert.equal(answer.status, 200);
  assert.deepEqual((JSON.parse(answer.body.toString('utf8')) as { query: unknown }).query, { a: '1' });
  assert.deepEqual(seen, [true, true]);
});

test('when the listener is a bare express app, then dispatched requests are node\'s own and express swaps them', async () => {
  const app = express();
  app.get('/x', (req, res) => res.json({ swapped: Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response }));
  const answer = await dispatchInProcess(app, { method: 'GET', path: '/x', headers: {} });
  assert.deepEqual(JSON.parse(answer.body.toString('utf8')), { swapped: true });
});

test('when a request is dispatched in process, then its res.locals starts empty, inherits nothing and keeps what a middleware stores', async () => {
  const http = createHttpApp({ service: 't', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.use((_req, res, next) => {
    res.locals.seen = 'stored';
    next();
  });
  http.app.get('/locals', (_req, res) =>
    sendJson(res, 200, { keys: Object.keys(res.locals), seen: res.locals.seen, inherited: 'toString' in res.locals || 'constructor' in res.locals || 'hasOwnProperty' in res.locals }),
  );
  const res = await dispatchInProcess(http.finalize(), { method: 'GET', path: '/locals', headers: {} });
  assert.deepEqual(JSON.parse(res.body.toString('utf8')), { keys: ['seen'], seen: 'stored', inherited: false });
});
