import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { world } from '../test-support/fakes';

describe('MembershipCache', () => {
  it('when a channel is asked twice, then posts is asked once; an eviction makes the next lookup ask again', async () => {
    const { membership, directory } = world();
    directory.addChannelMember('c', 'u1');
    assert.deepEqual([...((await membership.channelMembers('c')) ?? [])], ['u1']);
    directory.addChannelMember('c', 'u2');
    assert.equal(await membership.isChannelMember('c', 'u2'), false);
    assert.equal(directory.memberLookups, 1);
    membership.evictChannel('c');
    assert.equal(await membership.isChannelMember('c', 'u2'), true);
    assert.equal(directory.memberLookups, 2);
  });

  it('when concurrent lookups of one channel run, then they share one call', async () => {
    const { membership, directory } = world();
    directory.addChannelMember('c', 'u1');
    await Promise.all([membership.channelMembers('c'), membership.channelMembers('c'), membership.channelMembers('c')]);
    assert.equal(directory.memberLookups, 1);
  });

  it('when an eviction happens while a lookup is in flight, then that answer is not cached', async () => {
    const { membership, directory } = world();
    directory.addChannelMember('c', 'u1');
    const pending = membership.channelMembers('c');
    membership.evictChannel('other');
    await pending;
    await membership.channelMembers('c');
    assert.equal(directory.memberLookups, 2);
  });

  it('when the TTL passes, then the set is read again', async () => {
    const { membership, directory, clock } = world();
    directory.addChannelMember('c', 'u1');
    await membership.channelMembers('c');
    clock.time += 60_001;
    await membership.channelMembers('c');
    assert.equal(directory.memberLookups, 2);
  });

  it('when a channel does not exist, then undefined and nobody is a member; team membership is cached and evicted per user', async () => {
    const { membership, directory } = world();
    assert.equal(await membership.channelMembers('missing'), undefined);
    assert.equal(await membership.isChannelMember('missing', 'u'), false);
    assert.equal(await membership.isTeamMember('t', 'u'), false);
    directory.addTeamMember('t', 'u');
    assert.equal(await membership.isTeamMember('t', 'u'), false);
    membership.evictTeamMember('t', 'u');
    assert.equal(await membership.isTeamMember('t', 'u'), true);
  });

  it('when a member joins or leaves, then a cached set is updated without a lookup for membership events but read again for anything else; a channel cached as missing is evicted', async () => {
    const { membership, directory } = world();
    directory.addChannelMember('c', 'u1');
    await membership.channelMembers('c');
    directory.addChannelMember('c', 'u2');
    membership.memberJoined('c', 'u2');
    assert.deepEqual([...((await membership.membersAfterEvents('c')) ?? [])].sort(), ['u1', 'u2']);
    assert.equal(directory.memberLookups, 1);
    directory.removeChannelMember('c', 'u1');
    assert.deepEqual([...((await membership.channelMembers('c')) ?? [])], ['u2'], 'read again: posts has u2 only');
    assert.equal(directory.memberLookups, 2);
    membership.memberLeft('c', 'u2');
    assert.deepEqual([...((await membership.membersAfterEvents('c')) ?? [])], []);
    assert.equal(await membership.channelMembers('missing'), undefined);
    directory.addChannelMember('missing', 'u3');
    membership.memberJoined('missing', 'u3');
    assert.deepEqual([...((await membership.membersAfterEvents('missing')) ?? [])], ['u3']);
  });
});
