import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProcess, embeddedSkip } from './support/embedded-process';
import { call } from './support/processes';
import { startWithChannel } from './support/embedded-drill';

/**
 * Drill: API posts and incoming-hook posts flow into the embedded runtime (`npm start`, its own data
 * directory) while it is SIGKILLed mid-stream, then it starts again on the same directory. Every post
 * whose creation was acknowledged (201 from POST /api/v4/posts, 200 with ids from POST /hooks/{key}?wait=true)
 * must be readable afterwards.
 */
describe('drill: SIGKILL the embedded runtime under write load', { skip: embeddedSkip(), timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-kill-embedded-'));
  let runtime: EmbeddedProcess | undefined;
  after(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the process is killed while posts are acknowledged, then every acknowledged post is there after the restart', async () => {
    const drill = await startWithChannel(dataDir, 'load', 'Load');
    runtime = drill.runtime;
    const { base, token, channelId } = drill;
    const hook = await call(base, 'POST', '/api/v4/hooks/incoming', { token, body: { channel_id: channelId, display_name: 'drill' } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));

    const acknowledged: { id: string; via: 'api' | 'hook' }[] = [];
    let failed = 0;
    let killed = false;
    const attempts = 1_200;
    const killAfter = 150;
    let next = 0;
    const victim = runtime;
    const worker = async (w: number): Promise<void> => {
      while (next < attempts && !(killed && next > 0 && acknowledged.length > 0 && failed > 50)) {
        const i = next;
        next += 1;
        if (!killed && acknowledged.length >= killAfter) {
          killed = true;
          void victim.kill();
        }
        try {
          if ((i + w) % 2 === 0) {
            const res = await call(base, 'POST', '/api/v4/posts', { token, body: { channel_id: channelId, message: `api ${i}` } });
            if (res.status === 201) acknowledged.push({ id: String(res.body.id), via: 'api' });
            else failed += 1;
          } else {
            const res = await call(base, 'POST', `/hooks/${String(hook.body.id)}?wait=true`, { body: { text: `hook ${i}` } });
            const ids = res.status === 200 ? (res.body.post_ids as string[] | undefined) : undefined;
            if (ids && ids.length > 0) for (const id of ids) acknowledged.push({ id, via: 'hook' });
            else failed += 1;
          }
        } catch {
          failed += 1; // refused or reset: the process is gone, nothing was acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    assert.ok(killed, `the process was killed (acknowledged ${acknowledged.length} of ${attempts})`);
    await victim.exit();

    runtime = await EmbeddedProcess.on(dataDir);
    runtime.start();
    await runtime.waitReady();
    const again = await call(runtime.url, 'POST', '/api/v4/users/login', { body: { login_id: 'drilladmin', password: 'Drill-admin-pass1' } });
    const token2 = again.headers.get('token') ?? '';
    assert.equal(again.status, 200);
    const missing: string[] = [];
    for (const post of acknowledged) {
      const res = await call(runtime.url, 'GET', `/api/v4/posts/${post.id}`, { token: token2 });
      if (res.status !== 200) missing.push(`${post.via} ${post.id} (${res.status})`);
    }
    const api = acknowledged.filter((p) => p.via === 'api').length;
    process.stdout.write(
      `# kill-embedded: acknowledged ${acknowledged.length} (api ${api}, hook ${acknowledged.length - api}), found ${acknowledged.length - missing.length}, lost ${missing.length}; ${failed} requests failed around the kill\n`,
    );
    assert.deepEqual(missing, [], 'acknowledged posts lost');
  });
});
