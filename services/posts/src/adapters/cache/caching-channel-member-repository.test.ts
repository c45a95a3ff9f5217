import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ChannelMember } from '../../domain/entities';
import { aChannelMember } from '../contracts/fixtures';
import { memoryRepositories } from '../memory';
import { CachingChannelMemberRepository } from './caching-channel-member-repository';

function countingStore() {
  const store = memoryRepositories().channelMembers;
  let reads = 0;
  const find = store.find.bind(store);
  store.find = async (channelId: string, userId: string): Promise<ChannelMember | undefined> => {
    reads += 1;
    return find(channelId, userId);
  };
  return { store, reads: () => reads };
}

describe('CachingChannelMemberRepository (memberships for permission checks)', () => {
  it('when a membership is read twice through cachedMember, then the store is read once', async () => {
    const s = countingStore();
    const members = new CachingChannelMemberRepository(s.store);
    const member = aChannelMember();
    await members.insert(member);
    assert.equal((await members.cachedMember(member.channel_id, member.user_id))?.user_id, member.user_id);
    assert.equal((await members.cachedMember(member.channel_id, member.user_id))?.user_id, member.user_id);
    assert.equal(s.reads(), 1);
  });

  it('when the member is removed through the repository, then the next cached read finds no membership', async () => {
    const s = countingStore();
    const members = new CachingChannelMemberRepository(s.store);
    const member = aChannelMember();
    await members.insert(member);
    await members.cachedMember(member.channel_id, member.user_id);
    assert.equal(await members.delete(member.channel_id, member.user_id), true);
    assert.equal(await members.cachedMember(member.channel_id, member.user_id), undefined);
  });

  it('when another replica removed the member, then the cached membership holds until the channel is evicted', async () => {
    const s = countingStore();
    const members = new CachingChannelMemberRepository(s.store);
    const member = aChannelMember();
    await members.insert(member);
    await members.cachedMember(member.channel_id, member.user_id);
    await s.store.delete(member.channel_id, member.user_id);
    assert.ok(await members.cachedMember(member.channel_id, member.user_id), 'a change behind its back waits for the eviction');
    members.evictChannel(member.channel_id);
    assert.equal(await members.cachedMember(member.channel_id, member.user_id), undefined);
  });

  it('when a user is not a member, then that is not cached: a membership added elsewhere counts at once', async () => {
    const s = countingStore();
    const members = new CachingChannelMemberRepository(s.store);
    const member = aChannelMember({ user_id: newId() });
    assert.equal(await members.cachedMember(member.channel_id, member.user_id), undefined);
    await s.store.insert(member);
    assert.equal((await members.cachedMember(member.channel_id, member.user_id))?.user_id, member.user_id);
  });

  it('when the TTL passed, then the store is read again', async () => {
    const s = countingStore();
    let now = 0;
    const members = new CachingChannelMemberRepository(s.store, 100, () => now);
    const member = aChannelMember();
    await members.insert(member);
    await members.cachedMember(member.channel_id, member.user_id);
    now = 150;
    await members.cachedMember(member.channel_id, member.user_id);
    assert.equal(s.reads(), 2);
  });

  it('when the ids of a channel\'s members are read twice, then the store is read once; a member added or removed here, or a change another replica made (evictChannel), is seen at once', async () => {
    const store = memoryRepositories().channelMembers;
    let reads = 0;
    const read = store.userIdsOfChannel.bind(store);
    store.userIdsOfChannel = async (channelId: string, limit: number): Promise<string[]> => {
      reads += 1;
      return read(channelId, limit);
    };
    const members = new CachingChannelMemberRepository(store);
    const first = aChannelMember();
    await members.insert(first);
    assert.deepEqual(await members.userIdsOfChannel(first.channel_id, 1_000), [first.user_id]);
    assert.deepEqual(await members.userIdsOfChannel(first.channel_id, 1_000), [first.user_id]);
    assert.equal(reads, 1);
    const second = aChannelMember({ channel_id: first.channel_id, user_id: newId() });
    await members.insert(second);
    assert.deepEqual((await members.userIdsOfChannel(first.channel_id, 1_000)).sort(), [first.user_id, second.user_id].sort());
    await members.delete(first.channel_id, second.user_id);
    assert.deepEqual(await members.userIdsOfChannel(first.channel_id, 1_000), [first.user_id]);
    const third = aChannelMember({ channel_id: first.channel_id, user_id: newId() });
    await store.insert(third); // another replica's write: this cache hears of it through channels.events
    assert.deepEqual(await members.userIdsOfChannel(first.channel_id, 1_000), [first.user_id], 'until the event comes');
    members.evictChannel(first.channel_id);
    assert.deepEqual((await members.userIdsOfChannel(first.channel_id, 1_000)).sort(), [first.user_id, third.user_id].sort());
  });
});
