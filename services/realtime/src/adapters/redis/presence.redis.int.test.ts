import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { newId } from '@switchyard/ids';
import { ManualClock } from '../../test-support/fakes';
import { presenceStoreContract } from '../contracts/presence-store.contract';
import { RedisPresence } from './presence.redis';

const url = process.env.REDIS_URL;

describe('realtime Redis presence', { skip: !url && 'REDIS_URL not set: run deploy/local/up.sh' }, () => {
  const runPrefix = `rt_it_${randomBytes(4).toString('hex')}:`;
  // One client for every replica of a test, so a fire-and-forget write is applied before a later read.
  const redis = new Redis(url ?? '', { maxRetriesPerRequest: 1 });
  const started: RedisPresence[] = [];
  const errors: unknown[] = [];
  const replicaOf = async (prefix: string, id: string, clock = new ManualClock(), ttlMs = 30_000): Promise<RedisPresence> => {
    const presence = new RedisPresence(redis, { prefix, replicaId: id, ttlMs, clock, onError: (e) => errors.push(e) });
    await presence.start();
    started.push(presence);
    return presence;
  };

  after(async () => {
    for (const p of started) await p.close().catch(() => undefined);
    const keys = await redis.keys(`${runPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    assert.deepEqual(errors, []);
  });

  presenceStoreContract('RedisPresence', async () => {
    const prefix = `${runPrefix}${randomBytes(4).toString('hex')}:`;
    const clock = new ManualClock();
    return { replica: (id) => replicaOf(prefix, id, clock) };
  });

  it('when a replica stops refreshing (killed), then its users stop counting once its TTL has passed', async () => {
    const prefix = `${runPrefix}${randomBytes(4).toString('hex')}:`;
    const clock = new ManualClock();
    const killed = await replicaOf(prefix, 'killed', clock, 30_000);
    const survivor = await replicaOf(prefix, 'survivor', clock, 30_000);
    const [erin, frank] = [newId(), newId()];
    killed.set(erin, true);
    survivor.set(frank, true);
    assert.deepEqual([...(await survivor.onlineAmong([erin, frank]))].sort(), [erin, frank].sort());
    clock.time += 30_001;
    assert.deepEqual([...(await survivor.onlineAmong([erin, frank]))], [], 'neither replica refreshed: both expired');
    // The survivor refreshes (its timer would); the killed one does not.
    await survivor.refresh();
    assert.deepEqual([...(await survivor.onlineAmong([erin, frank]))], [frank]);
    assert.deepEqual(await survivor.onlineUsers(), [frank]);
  });
});
