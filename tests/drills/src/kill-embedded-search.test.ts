import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProcess, embeddedSkip } from './support/embedded-process';
import { call } from './support/processes';
import { startWithChannel } from './support/embedded-drill';

/**
 * Drill: the post search index (SQLite FTS5, written by triggers in the post's own transaction) survives a
 * SIGKILL of the embedded runtime with no re-index: every post acknowledged before the kill is found by a
 * word only it has, right after the restart; no post is found twice.
 */
describe('drill: SIGKILL the embedded runtime, then search', { skip: embeddedSkip(), timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-kill-search-'));
  let runtime: EmbeddedProcess | undefined;
  after(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the process is killed while posts are acknowledged, then each acknowledged post is found by search after the restart', async () => {
    const drill = await startWithChannel(dataDir, 'search-load', 'Load');
    runtime = drill.runtime;
    const { base, token, channelId, teamId } = drill;

    const word = (i: number): string => `kq${i.toString(36)}zz`;
    const acknowledged: { id: string; i: number }[] = [];
    let killed = false;
    let next = 0;
    const victim = runtime;
    const worker = async (): Promise<void> => {
      while (next < 1_000 && !killed) {
        const i = next;
        next += 1;
        if (acknowledged.length >= 120) {
          killed = true;
          void victim.kill();
          return;
        }
        try {
          const res = await call(base, 'POST', '/api/v4/posts', { token, body: { channel_id: channelId, message: `deploy ${word(i)} done #drill` } });
          if (res.status === 201) acknowledged.push({ id: String(res.body.id), i });
        } catch {
          return; // the process is gone
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, () => worker()));
    assert.ok(killed, `the process was killed (acknowledged ${acknowledged.length})`);
    await victim.exit();

    runtime = await EmbeddedProcess.on(dataDir);
    runtime.start();
    await runtime.waitReady();
    const again = await call(runtime.url, 'POST', '/api/v4/users/login', { body: { login_id: 'drilladmin', password: 'Drill-admin-pass1' } });
    const token2 = again.headers.get('token') ?? '';
    assert.equal(again.status, 200);
    const missing: string[] = [];
    for (const post of acknowledged) {
      const res = await call(runtime.url, 'POST', `/api/v4/teams/${teamId}/posts/search`, { token: token2, body: { terms: word(post.i), is_or_search: false } });
      const order = (res.body as { order?: string[] }).order ?? [];
      if (res.status !== 200 || order.length !== 1 || order[0] !== post.id) missing.push(`${post.id} (${res.status}, ${order.length} found)`);
    }
    process.stdout.write(`# kill-embedded-search: acknowledged ${acknowledged.length}, found by search ${acknowledged.length - missing.length}, missing ${missing.length}\n`);
    assert.deepEqual(missing, [], 'acknowledged posts missing from search after SIGKILL');
  });
});
