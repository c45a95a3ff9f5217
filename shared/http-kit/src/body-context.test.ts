import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { currentRequestContext, runWithRequestContext } from '@switchyard/logger';
import { rawBody } from './body';

test('when a body arrives over a real socket, then handlers after rawBody still see the request context', async () => {
  const app = express();
  app.use((req, _res, next) => runWithRequestContext({ requestId: String(req.headers['x-request-id']) }, next));
  app.post('/echo', rawBody(() => 1_000_000), (req, res) => {
    res.json({ requestId: currentRequestContext()?.requestId ?? null, size: req.rawBody?.length ?? -1 });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'x-request-id': 'req-42' }, body: 'x'.repeat(200_000) });
    assert.deepEqual(await response.json(), { requestId: 'req-42', size: 200_000 });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
