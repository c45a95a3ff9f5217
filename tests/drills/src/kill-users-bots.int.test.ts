import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ServiceProcess } from './support/processes';

const servers = realServers();

/**
 * Drill: users are created through the gateway in a bounded loop while users-bots is SIGKILLed (no
 * graceful shutdown) and started again. Every creation the gateway acknowledged (201) must be readable
 * afterwards: an acknowledged write is durable in MongoDB before the answer leaves users-bots.
 */
describe('drill: SIGKILL users-bots while writes flow', { skip: servers.skip }, () => {
  const names = isolation();
  let gateway: ServiceProcess;
  let usersBots: ServiceProcess;

  before(async () => {
    if (servers.skip !== false) return;
    const env = {
      ...servers.env,
      KAFKA_NAMESPACE: names.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
    };
    usersBots = new ServiceProcess('users-bots', await freePort(), { ...env, MONGO_DB: `${names.MONGO_DB_PREFIX}users` });
    gateway = new ServiceProcess('gateway', await freePort(), { ...env, SERVICE_URLS: `users-bots=${usersBots.url}`, UPSTREAM_TIMEOUT_MS: '5000' });
    usersBots.start();
    await usersBots.waitReady();
    gateway.start();
    await gateway.waitReady('/api/v4/system/ping');
  });

  after(async () => {
    await gateway?.stop();
    await usersBots?.stop();
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  it('when users-bots is killed and restarted mid-stream, then every acknowledged user is readable and the admin session survives', async () => {
    const base = gateway.url;
    const admin = await bootstrapAdmin(base);
    const acknowledged: { id: string; username: string }[] = [];
    let refused = 0;
    let killedAt = -1;
    let restarted: Promise<void> | undefined;
    const attempts = 240;
    const concurrency = 4;
    let next = 0;

    const worker = async (): Promise<void> => {
      while (next < attempts) {
        const i = next;
        next += 1;
        if (killedAt < 0 && acknowledged.length >= 40) {
          killedAt = i;
          await usersBots.kill();
          // Back after a pause long enough for requests to fail meanwhile.
          restarted = (async () => {
            await new Promise((r) => setTimeout(r, 1_000));
            usersBots.start();
            await usersBots.waitReady();
          })();
        }
        const username = `drill${i}x${randomBytes(3).toString('hex')}`;
        const res = await call(base, 'POST', '/api/v4/users', { token: admin, body: { username, email: `${username}@example.com`, password: 'Drill-pass-123' } }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push({ id: String(res.body.id), username });
        else {
          refused += 1;
          // Down: wait for the restart instead of spending the bounded attempts while it is away (on a busy
          // machine the restart can outlast them, and then nothing would show writes after it).
          if (restarted) await restarted;
          else await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    await restarted;

    assert.ok(killedAt > 0, 'users-bots was killed during the loop');
    assert.ok(refused > 0, 'some writes were refused while users-bots was down');
    assert.ok(acknowledged.length > 40, `writes were acknowledged after the restart too (${acknowledged.length})`);

    const missing: string[] = [];
    for (const user of acknowledged) {
      const read = await call(base, 'GET', `/api/v4/users/${user.id}`, { token: admin });
      if (read.status !== 200 || read.body.username !== user.username) missing.push(`${user.username}: ${read.status}`);
    }
    assert.deepEqual(missing, [], `acknowledged but lost: ${missing.length} of ${acknowledged.length}`);
    assert.equal((await call(base, 'GET', '/api/v4/users/me', { token: admin })).status, 200, 'the admin session (stored in MongoDB) survived');
    process.stdout.write(`# drill: ${acknowledged.length} acknowledged, ${refused} refused while users-bots was down, 0 lost\n`);
  });
});
