import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { HttpTransport } from './transport';

/**
 * An upstream whose /poll answers only when released (a long-poll waiting for events) and /quick at once.
 * 100 polls wait, more than the 64 connections of the ordinary pool: a quick request must not queue behind them.
 */
async function run(transport: (url: string) => HttpTransport, waitForQuickMs: number): Promise<{ quickAnsweredWhilePollsWait: boolean }> {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/poll')) held.push(res);
    else res.end('quick');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const http = transport(url);
  try {
    const polls = Array.from({ length: 100 }, () => http.send('svc', { method: 'GET', path: '/poll?wait=30', headers: {} }));
    for (let i = 0; i < 500 && held.length < 64; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const quick = http.send('svc', { method: 'GET', path: '/quick', headers: {} }).then((r) => r.body.toString());
    // The polls are held until released below, so "answered while they wait" needs no tight time bound.
    const first = await Promise.race([quick.then(() => 'quick'), new Promise((resolve) => setTimeout(() => resolve('timeout'), waitForQuickMs))]);
    for (const res of held) res.end('[]');
    for (let i = 0; i < 500 && held.length < 100; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const res of held) if (!res.writableEnded) res.end('[]');
    await Promise.all(polls);
    assert.equal(await quick, 'quick');
    return { quickAnsweredWhilePollsWait: first === 'quick' };
  } finally {
    await http.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('when 100 long-polls wait upstream, then another request to the same service is answered at once (they have their own pool)', async () => {
  // Generous: a loaded box may take seconds to answer; the polls still wait meanwhile.
  const result = await run((url) => new HttpTransport({ svc: url }, 30_000, { longRequests: { matches: (_service, path) => path.startsWith('/poll'), connections: 1_000 } }), 20_000);
  assert.equal(result.quickAnsweredWhilePollsWait, true);
});

test('without a pool for long requests, the same request waits behind the 64 held connections (what the option fixes)', async () => {
  // It cannot be answered before a poll is released, however long it is given: 1 s shows it.
  const result = await run((url) => new HttpTransport({ svc: url }, 30_000), 1_000);
  assert.equal(result.quickAnsweredWhilePollsWait, false);
});
