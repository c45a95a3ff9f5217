import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NextFunction, Request, Response } from 'express';
import { inject } from 'light-my-request';
import { badRequest } from '@switchyard/errors';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, listen, requestPrototypes, sendJson } from './index';

/** An app whose `/fast/*` requests take the shortcut; the router has its own answer for `/fast/router`. */
function app() {
  const http = createHttpApp({ service: 't', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  const seen: string[] = [];
  http.app.get('/fast/router', (_req, res) => sendJson(res, 200, { by: 'router' }));
  http.app.get('/slow', (req, res) => sendJson(res, 200, { by: 'router', url: req.originalUrl }));
  const mark = (req: Request, res: Response, next: NextFunction): void => {
    seen.push(`mark ${req.originalUrl}`);
    res.setHeader('X-Marked', '1');
    next();
  };
  const answer = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    await Promise.resolve();
    if (req.path === '/fast/throw') throw badRequest('x.thrown', 'thrown');
    if (req.path === '/fast/next-error') return next(badRequest('x.next', 'passed on'));
    if (req.path === '/fast/on') return next();
    sendJson(res, 201, { by: 'chain', url: req.originalUrl, requestId: req.requestId, locals: typeof res.locals, ip: req.ip, query: req.query });
  };
  http.shortcut((req) => (req.url ?? '').startsWith('/fast/'), [mark, answer]);
  return { handler: http.finalize(), seen };
}

test('when a request takes the shortcut, then its chain answers it with the app\'s request id and express request/response, and the router never sees it', async () => {
  const { handler, seen } = app();
  const res = await inject(handler, { method: 'GET', url: '/fast/router?a=1' });
  assert.equal(res.statusCode, 201);
  const body = res.json<{ by: string; url: string; requestId: string; locals: string; ip: string; query: unknown }>();
  assert.equal(body.by, 'chain');
  assert.equal(body.url, '/fast/router?a=1');
  assert.equal(body.requestId, res.headers['x-request-id']);
  assert.equal(body.locals, 'object');
  assert.equal(body.ip, '127.0.0.1');
  assert.deepEqual(body.query, { a: '1' });
  assert.equal(res.headers['x-marked'], '1');
  assert.deepEqual(seen, ['mark /fast/router?a=1']);
  const other = await inject(handler, { method: 'GET', url: '/slow' });
  assert.deepEqual(other.json(), { by: 'router', url: '/slow' });
  assert.equal(other.headers['x-marked'], undefined);
});

test('when a shortcut middleware throws, rejects or passes an error on, then the app\'s error middleware answers; a chain that runs out is 404', async () => {
  const { handler } = app();
  for (const [url, id] of [['/fast/throw', 'x.thrown'], ['/fast/next-error', 'x.next']] as const) {
    const res = await inject(handler, { method: 'GET', url });
    assert.equal(res.statusCode, 400, url);
    assert.equal(res.json<{ id: string }>().id, id);
    assert.equal(res.json<{ request_id: string }>().request_id, res.headers['x-request-id']);
    assert.equal(res.headers['x-marked'], '1', 'headers set before the error stay');
  }
  const end = await inject(handler, { method: 'GET', url: '/fast/on' });
  assert.equal(end.statusCode, 404);
  assert.equal(end.json<{ id: string }>().id, 'api.context.404.app_error');
});

test('when the app listens on a socket, then shortcut requests are served there too', async () => {
  const { handler } = app();
  const server = await listen(handler, 0, '127.0.0.1', { prototypes: requestPrototypes(handler) });
  try {
    const res = await fetch(`${server.url}/fast/x`);
    assert.equal(res.status, 201);
    assert.equal((await res.json() as { by: string }).by, 'chain');
    assert.equal((await fetch(`${server.url}/slow`)).status, 200);
  } finally {
    await server.close();
  }
});
