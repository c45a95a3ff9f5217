import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { HttpTransport } from './transport';

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const BIG = Buffer.alloc(300_000, 'x');

/** A service whose answers exercise what the gateway passes on: repeated headers, a body in many chunks, 1xx first, no body. */
function service(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      switch (req.url) {
        case '/echo':
          res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
          res.setHeader('X-Echo-Method', req.method ?? '');
          res.setHeader('X-Echo-Length', String(body.length));
          res.end(body);
          return;
        case '/big':
          res.write(BIG.subarray(0, 100_000));
          setImmediate(() => res.end(BIG.subarray(100_000)));
          return;
        case '/early':
          res.writeEarlyHints({ link: '</style.css>; rel=preload' }, () => res.end('final'));
          return;
        case '/empty':
          res.statusCode = 204;
          res.end();
          return;
        default:
          res.statusCode = 404;
          res.end('{"id":"api.context.404.app_error"}');
      }
    });
  });
}

test('when a service answers over HTTP, then status, headers (repeated ones as arrays) and the whole body come back as sent', async () => {
  const server = service();
  const transport = new HttpTransport({ svc: await listening(server) }, 5_000);
  try {
    const echo = await transport.send('svc', { method: 'PUT', path: '/echo', headers: { 'content-type': 'text/plain', connection: 'close', 'x-absent': undefined }, body: Buffer.from('héllo') });
    assert.equal(echo.status, 200);
    assert.deepEqual(echo.headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/']);
    assert.equal(echo.headers['x-echo-method'], 'PUT');
    assert.equal(echo.headers['x-echo-length'], String(Buffer.byteLength('héllo')));
    assert.equal(echo.body.toString('utf8'), 'héllo');
    const big = await transport.send('svc', { method: 'GET', path: '/big', headers: {} });
    assert.equal(big.body.length, BIG.length);
    assert.ok(big.body.equals(BIG));
    const early = await transport.send('svc', { method: 'GET', path: '/early', headers: {} });
    assert.equal(early.status, 200, 'a 103 first is skipped, not the answer');
    assert.equal(early.body.toString(), 'final');
    const empty = await transport.send('svc', { method: 'DELETE', path: '/empty', headers: {} });
    assert.equal(empty.status, 204);
    assert.equal(empty.body.length, 0);
    const missing = await transport.send('svc', { method: 'GET', path: '/nowhere?x=1', headers: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.toString(), '{"id":"api.context.404.app_error"}');
  } finally {
    await transport.close();
    await shut(server);
  }
});

test('when a service does not answer within the timeout, then the call fails as unavailable', async () => {
  const server = createServer(() => undefined);
  const transport = new HttpTransport({ svc: await listening(server) }, 200);
  try {
    await assert.rejects(transport.send('svc', { method: 'GET', path: '/', headers: {} }), (error: { id?: string }) => error.id === 'api.context.server_busy.app_error');
  } finally {
    await transport.close();
    await shut(server);
  }
});
