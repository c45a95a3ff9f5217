import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProcess, embeddedSkip } from './support/embedded-process';
import { call } from './support/processes';
import { startWithChannel } from './support/embedded-drill';

interface Consumer {
  cursor: string;
  /** The `message` of each `posted` event handled, in the order received. */
  readonly got: string[];
}

/** One long-poll of GET /api/v4/events; the cursor moves only when an answer arrived (as a bot that finished a batch). */
async function poll(base: string, token: string, consumer: Consumer, wait: number): Promise<void> {
  const res = await call(base, 'GET', `/api/v4/events?cursor=${encodeURIComponent(consumer.cursor)}&wait=${wait}&limit=200`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const events = res.body.events as { event: string; data: { post?: string } }[];
  for (const e of events) if (e.event === 'posted' && e.data.post) consumer.got.push(String((JSON.parse(e.data.post) as { message: string }).message));
  consumer.cursor = String(res.body.cursor);
}

/**
 * Drill: a bot follows a channel over GET /api/v4/events while posts flow into the embedded runtime, which is
 * SIGKILLed mid-stream and started again on the same data directory (realtime holds nothing then: the
 * resume reads the journal's event history). With the cursor of the last batch it finished, the bot gets
 * every acknowledged post once, in order.
 */
describe('drill: SIGKILL the embedded runtime mid-stream, then resume the event stream with the cursor', { skip: embeddedSkip(), timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-kill-embedded-events-'));
  let runtime: EmbeddedProcess | undefined;
  after(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the process is killed while a bot follows the stream, then resuming from its cursor gives every acknowledged post once and in order', async () => {
    const drill = await startWithChannel(dataDir, 'stream', 'Stream');
    runtime = drill.runtime;
    const { base, token, channelId } = drill;
    const start = await call(base, 'GET', '/api/v4/events', { token });
    const consumer: Consumer = { cursor: String(start.body.cursor), got: [] };

    const acknowledged: number[] = [];
    let killed = false;
    const victim = runtime;
    const writer = (async () => {
      for (let i = 0; i < 400 && !killed; i += 1) {
        // The kill lands while a post is on its way (acknowledged or not: only acknowledged ones must arrive).
        const kill = acknowledged.length === 120 ? victim.kill() : undefined;
        const res = await call(base, 'POST', '/api/v4/posts', { token, body: { channel_id: channelId, message: `m${i}` } }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(i);
        if (kill) {
          killed = true;
          await kill;
        }
      }
    })();
    const reader = (async () => {
      while (!killed) await poll(base, token, consumer, 1).catch(() => undefined);
    })();
    await writer;
    await reader;
    await victim.exit();
    const before = consumer.got.length;

    runtime = await EmbeddedProcess.on(dataDir);
    runtime.start();
    await runtime.waitReady();
    const login = await call(runtime.url, 'POST', '/api/v4/users/login', { body: { login_id: 'drilladmin', password: 'Drill-admin-pass1' } });
    const token2 = login.headers.get('token') ?? '';
    for (let i = 400; i < 420; i += 1) {
      const res = await call(runtime.url, 'POST', '/api/v4/posts', { token: token2, body: { channel_id: channelId, message: `m${i}` } });
      assert.equal(res.status, 201);
      acknowledged.push(i);
    }
    const deadline = Date.now() + 60_000;
    while (!consumer.got.includes('m419') && Date.now() < deadline) await poll(runtime.url, token2, consumer, 2);
    const numbers = consumer.got.map((m) => Number(m.slice(1)));
    const duplicates = numbers.filter((n, i) => numbers.indexOf(n) !== i);
    const missing = acknowledged.filter((n) => !numbers.includes(n));
    const outOfOrder = numbers.filter((n, i) => i > 0 && n <= (numbers[i - 1] as number));
    process.stdout.write(`# kill-embedded-events: acknowledged ${acknowledged.length}, received ${numbers.length} (${before} before the kill), missing ${missing.length}, duplicates ${duplicates.length}, out of order ${outOfOrder.length}\n`);
    assert.deepEqual(missing, [], 'acknowledged posts never received');
    assert.deepEqual(duplicates, [], 'received twice');
    assert.deepEqual(outOfOrder, [], 'out of order');
  });
});
