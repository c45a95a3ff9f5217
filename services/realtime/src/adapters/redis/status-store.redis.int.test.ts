import { randomBytes } from 'node:crypto';
import { after, describe } from 'node:test';
import { Redis } from 'ioredis';
import { statusStoreContract } from '../contracts/status-store.contract';
import { RedisStatusStore } from './status-store.redis';

const url = process.env.REDIS_URL;

describe('realtime Redis statuses', { skip: !url && 'REDIS_URL not set: run deploy/local/up.sh' }, () => {
  const prefix = `rt_st_${randomBytes(4).toString('hex')}:`;
  const clients = [new Redis(url ?? '', { maxRetriesPerRequest: 1, lazyConnect: true }), new Redis(url ?? '', { maxRetriesPerRequest: 1, lazyConnect: true })] as const;
  after(async () => {
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length > 0) await clients[0].del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
  });
  statusStoreContract('RedisStatusStore', async () => [new RedisStatusStore(clients[0], prefix), new RedisStatusStore(clients[1], prefix)]);
});
