import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSilentLogger } from '@switchyard/logger';
import { usersEventsConsumer } from './users-events.consumer';

const message = (value: unknown) => ({ topic: 'users.events', partition: 0, offset: '0', key: 'k', value, headers: {}, attempt: 1 });

test('when a user event arrives, then that user is evicted; team events evict nobody', async () => {
  const evicted: string[] = [];
  const handle = usersEventsConsumer(async (userId) => void evicted.push(userId), createSilentLogger());
  await handle(message({ type: 'user.deactivated', payload: { userId: 'u1' } }));
  await handle(message({ type: 'team.member_added', payload: { userId: 'u2', teamId: 't1' } }));
  await handle(message({ type: 'team.created', payload: { userId: 'u3', teamId: 't2' } }));
  assert.deepEqual(evicted, ['u1']);
});
