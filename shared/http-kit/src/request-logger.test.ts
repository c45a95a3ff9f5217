import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '@switchyard/logger';
import { createHttpApp, listen, rawBody, requestLogger, sendJson } from './index';

test('when code below a route logs through requestLogger after the body came over a real socket, then each line names its own request', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 't', sink: (line) => lines.push(line) });
  const http = createHttpApp({ service: 't', logger, ready: async () => ({ ok: true, checks: {} }) });
  const belowTheRoute = async (log: typeof logger, size: number): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    log.warn('body read', { size });
  };
  http.app.post('/echo', rawBody(() => 1_000_000), async (req, res) => {
    await belowTheRoute(requestLogger(logger, req), req.rawBody?.length ?? -1);
    sendJson(res, 200, {});
  });
  const server = await listen(http.finalize(), 0, '127.0.0.1');
  try {
    const send = () => fetch(`${server.url}/echo`, { method: 'POST', body: 'x'.repeat(200_000) });
    const answers = await Promise.all([send(), send(), send()]);
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    assert.equal(new Set(ids).size, 3);
    const logged = lines.filter((line) => line.message === 'body read');
    assert.equal(logged.length, 3);
    assert.deepEqual(logged.map((line) => line.request_id).sort(), [...ids].sort());
    assert.ok(logged.every((line) => line.size === 200_000));
  } finally {
    await server.close();
  }
});
