import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Channel } from '../../domain/entities';
import { aChannel } from '../contracts/fixtures';
import { memoryRepositories } from '../memory';
import { CachingChannelRepository } from './caching-channel-repository';

function countingStore() {
  const store = memoryRepositories().channels;
  let reads = 0;
  const findById = store.findById.bind(store);
  store.findById = async (id: string): Promise<Channel | undefined> => {
    reads += 1;
    return findById(id);
  };
  return { store, reads: () => reads };
}

describe('CachingChannelRepository (the create-post command cache)', () => {
  it('when a channel is read twice through cached, then the store is read once; counting posts keeps the entry', async () => {
    const s = countingStore();
    const channels = new CachingChannelRepository(s.store);
    const channel = aChannel();
    await channels.insert(channel);
    await channels.cached(channel.id);
    await channels.recordPost(channel.id, 5, true);
    assert.equal((await channels.cached(channel.id))?.id, channel.id);
    assert.equal(s.reads(), 1);
  });

  it('when the channel is archived through the repository or evicted after a change elsewhere, then the next cached read sees it', async () => {
    const s = countingStore();
    const channels = new CachingChannelRepository(s.store);
    const channel = aChannel();
    await channels.insert(channel);
    await channels.cached(channel.id);
    await channels.update(channel.id, { delete_at: 10, update_at: 10 });
    assert.equal((await channels.cached(channel.id))?.delete_at, 10);
    await s.store.update(channel.id, { delete_at: 0, update_at: 11 });
    assert.equal((await channels.cached(channel.id))?.delete_at, 10, 'a change behind its back waits for the eviction');
    channels.evict(channel.id);
    assert.equal((await channels.cached(channel.id))?.delete_at, 0);
  });

  it('when the TTL passed, then the store is read again', async () => {
    const s = countingStore();
    let now = 0;
    const channels = new CachingChannelRepository(s.store, 100, () => now);
    const channel = aChannel();
    await channels.insert(channel);
    await channels.cached(channel.id);
    now = 150;
    await channels.cached(channel.id);
    assert.equal(s.reads(), 2);
  });
});
