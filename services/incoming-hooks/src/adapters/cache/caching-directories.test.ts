import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import type { ChannelDirectory, UserDirectory } from '../../domain/ports';
import { CachingChannelDirectory, CachingUserDirectory } from './caching-directories';

/** An inner directory whose lookups are recorded and answer only when released. */
function heldLookups() {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  const hold = <T>(call: string, value: T): Promise<T> => {
    calls.push(call);
    return new Promise((resolve) => held.push(() => resolve(value)));
  };
  return { calls, hold, release: () => held.splice(0).forEach((go) => go()) };
}

const user = (id: string) => ({ id, username: `u-${id}` }) as InternalUser;
const channel = (id: string) => ({ id, type: 'O', delete_at: 0 }) as InternalChannel;

function users(ttlMs = 2_000) {
  const lookups = heldLookups();
  const known = new Set(['a', 'b', 'c']);
  const inner = { usersByIds: (ids: readonly string[]) => lookups.hold(`users ${ids.join(',')}`, ids.filter((id) => known.has(id)).map(user)) } as UserDirectory;
  return { ...lookups, directory: new CachingUserDirectory(inner, ttlMs) };
}

function channels(ttlMs = 2_000) {
  const lookups = heldLookups();
  const inner = {
    channel: (id: string) => lookups.hold(`channel ${id}`, channel(id)),
    memberRoles: (channelId: string, userId: string) => lookups.hold(`member ${channelId} ${userId}`, 'channel_user'),
  } as unknown as ChannelDirectory;
  return { ...lookups, directory: new CachingChannelDirectory(inner, ttlMs) };
}

describe('CachingUserDirectory (the hook owner of every POST /hooks/{key})', () => {
  it('when many requests miss the same user at once, then users-bots is asked once and each gets the user', async () => {
    const w = users();
    const reads = Array.from({ length: 32 }, () => w.directory.usersByIds(['a']));
    await Promise.resolve();
    w.release();
    const answers = await Promise.all(reads);
    assert.deepEqual(w.calls, ['users a']);
    assert.ok(answers.every((found) => found.length === 1 && found[0]?.id === 'a'));
    assert.deepEqual((await w.directory.usersByIds(['a'])).map((u) => u.id), ['a'], 'a later request is answered from the cache');
    assert.deepEqual(w.calls, ['users a']);
  });

  it('when one call misses several users, then they are asked for in one request; unknown ones are left out and not cached', async () => {
    const w = users();
    const first = w.directory.usersByIds(['a', 'b', 'x', 'a']);
    await Promise.resolve();
    w.release();
    assert.deepEqual((await first).map((u) => u.id), ['a', 'b']);
    const second = w.directory.usersByIds(['b', 'x', 'c']);
    await Promise.resolve();
    w.release();
    assert.deepEqual((await second).map((u) => u.id), ['b', 'c']);
    assert.deepEqual(w.calls, ['users a,b,x', 'users x,c']);
  });

  it('when the user is evicted while a lookup runs, then a later request asks again instead of joining it', async () => {
    const w = users();
    const before = w.directory.usersByIds(['a']);
    await Promise.resolve();
    w.directory.evictUser('a');
    const after = w.directory.usersByIds(['a']);
    await Promise.resolve();
    w.release();
    await Promise.all([before, after]);
    assert.deepEqual(w.calls, ['users a', 'users a']);
  });
});

describe('CachingChannelDirectory', () => {
  it('when many requests miss the same channel and membership at once, then posts is asked once for each', async () => {
    const w = channels();
    const reads = Array.from({ length: 8 }, () => Promise.all([w.directory.channel('c1'), w.directory.memberRoles('c1', 'u1')]));
    w.release();
    const answers = await Promise.all(reads);
    assert.deepEqual(w.calls, ['channel c1', 'member c1 u1']);
    assert.ok(answers.every(([found, roles]) => found?.id === 'c1' && roles === 'channel_user'));
  });

  it('when a channel event evicts the channel and membership, then the next lookups ask posts again', async () => {
    const w = channels();
    const first = Promise.all([w.directory.channel('c1'), w.directory.memberRoles('c1', 'u1')]);
    w.release();
    await first;
    w.directory.evictChannel('c1', 'u1');
    const second = Promise.all([w.directory.channel('c1'), w.directory.memberRoles('c1', 'u1')]);
    w.release();
    await second;
    assert.deepEqual(w.calls, ['channel c1', 'member c1 u1', 'channel c1', 'member c1 u1']);
  });

  it('when the cache is off (TTL 0), then every lookup asks posts', async () => {
    const w = channels(0);
    const reads = [w.directory.channel('c1'), w.directory.channel('c1')];
    w.release();
    await Promise.all(reads);
    assert.deepEqual(w.calls, ['channel c1', 'channel c1']);
  });
});
