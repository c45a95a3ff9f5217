import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { MemoryPresence } from '../../adapters/memory/presence.memory';
import { MemoryStatusStore } from '../../adapters/memory/status-store.memory';
import { statusPostsTap } from './status-posts.consumer';
import type { StoredStatus } from '../../domain/statuses/status';
import { Statuses } from '../../domain/statuses/statuses';

const NOW = 1_800_000_000_000;

/** Statuses over memory stores that count their calls, with a settable clock and the announcements made. */
function world() {
  const calls = { get: 0, put: 0, presence: 0 };
  const store = new MemoryStatusStore();
  const presence = new MemoryPresence();
  const clock = { time: NOW, now: () => clock.time };
  const announced: [string, string][] = [];
  const statuses = new Statuses({
    store: { get: (ids) => ((calls.get += 1), store.get(ids)), put: (s: StoredStatus) => ((calls.put += 1), store.put(s)) },
    presence: { onlineAmong: (ids) => ((calls.presence += 1), presence.onlineAmong(ids)) },
    clock,
    settings: () => ({ enabled: true, awayAfterMs: 300_000 }),
    announce: async (userId, status) => void announced.push([userId, status]),
    onError: (error) => assert.fail(String(error)),
  });
  return { statuses, store, presence, clock, calls, announced };
}

test('when a REST-only user posts, then they are online and announced once; later posts store the activity without asking the sockets', async () => {
  const w = world();
  await w.statuses.posted(['u1']);
  assert.deepEqual(w.announced, [['u1', 'online']]);
  assert.equal(w.calls.presence, 1, 'offline -> online depends on a socket the first time');
  w.clock.time += 1_000;
  await w.statuses.posted(['u1', 'u1', 'u1']);
  assert.deepEqual(w.calls, { get: 2, put: 2, presence: 1 }, 'one read and one write for a run of posts by one user');
  assert.deepEqual(w.announced, [['u1', 'online']]);
  const [read] = await w.statuses.read(['u1']);
  assert.deepEqual([read?.status, read?.last_activity_at], ['online', NOW + 1_000]);
});

test('when a user with a manual status posts, then nothing is stored or announced', async () => {
  const w = world();
  await w.statuses.set('u1', 'dnd', 0);
  const writes = w.calls.put;
  await w.statuses.posted(['u1']);
  assert.equal(w.calls.put, writes);
  assert.deepEqual(w.announced, [['u1', 'dnd']]);
  assert.deepEqual((await w.statuses.read(['u1']))[0]?.status, 'dnd');
});

test('when a connected user idled into away posts, then online is announced; the same user without a socket stays offline', async () => {
  const w = world();
  w.presence.set('u1', true);
  w.statuses.activity('u1');
  w.statuses.activity('u2');
  await new Promise((resolve) => setImmediate(resolve));
  w.clock.time += 300_001;
  assert.equal(await w.statuses.sweepAway(['u1']), 1);
  await w.statuses.posted(['u1', 'u2']);
  assert.deepEqual(w.announced, [['u1', 'away'], ['u1', 'online']]);
  assert.deepEqual((await w.statuses.read(['u1', 'u2'])).map((s) => s.status), ['online', 'offline']);
});

test('when REST posts go by on the replica\'s stream, then only they count; authors seen while a write runs go together in the next one; a non-leading replica applies none', async () => {
  const posted: string[][] = [];
  const pending: (() => void)[] = [];
  const errors: unknown[] = [];
  let leading = true;
  const tap = statusPostsTap({ posted: (ids) => new Promise<void>((resolve) => ((posted.push([...ids]), pending.push(resolve)))) }, () => leading, (e) => errors.push(e));
  const message = (payload: Record<string, unknown>, type = 'post.created'): BusMessage => ({ topic: Topics.postsEvents, partition: 0, offset: '0', key: 'c1', headers: {}, attempt: 1, value: { type, payload } });
  const rest = (userId: string) => message({ source: 'api', post: { user_id: userId, type: '' } });
  tap(rest('u1'));
  tap(message({ source: 'incoming_webhook', post: { user_id: 'u2', type: '' } }));
  tap(message({ source: 'api', post: { user_id: 'u3', type: 'system_join_channel' } }));
  tap(message({ source: 'api', post: { user_id: 'u1', type: '' } }, 'post.edited'));
  tap({ ...rest('u5'), topic: Topics.channelsEvents });
  tap(rest('u4'));
  tap(rest('u1'));
  assert.deepEqual(posted, [['u1']], 'one write at a time');
  pending.shift()?.();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(posted, [['u1'], ['u4', 'u1']]);
  pending.shift()?.();
  await new Promise((resolve) => setImmediate(resolve));
  leading = false;
  tap(rest('u6'));
  assert.deepEqual(posted, [['u1'], ['u4', 'u1']], 'another replica leads: it applies the status');
  assert.deepEqual(errors, []);
});

test('when a status write fails, then the failure is reported, not thrown, and later posts still go out', async () => {
  const errors: unknown[] = [];
  const posted: string[][] = [];
  let fail = true;
  const tap = statusPostsTap({ posted: async (ids) => { posted.push([...ids]); if (fail) throw new Error('redis down'); } }, () => true, (e) => errors.push(e));
  const rest = (userId: string): BusMessage => ({ topic: Topics.postsEvents, partition: 0, offset: '0', key: 'c1', headers: {}, attempt: 1, value: { type: 'post.created', payload: { source: 'api', post: { user_id: userId, type: '' } } } });
  tap(rest('u1'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(errors.length, 1);
  fail = false;
  tap(rest('u2'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(posted, [['u1'], ['u2']]);
  assert.equal(errors.length, 1);
});
