import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ChannelMemberRepository } from '../../domain/ports';
import { aChannelMember, rejectsDuplicate, type Factory } from './fixtures';

export function channelMemberRepositoryContract(name: string, make: Factory<ChannelMemberRepository>): void {
  describe(`ChannelMemberRepository contract: ${name}`, () => {
    it('when a member is inserted twice, then DuplicateKeyError(member); find and delete work by the pair', async () => {
      const repo = await make();
      const member = aChannelMember();
      await repo.insert(member);
      assert.deepEqual(await repo.find(member.channel_id, member.user_id), member);
      await rejectsDuplicate(() => repo.insert({ ...member }), 'member');
      assert.equal(await repo.delete(member.channel_id, member.user_id), true);
      assert.equal(await repo.delete(member.channel_id, member.user_id), false);
      assert.equal(await repo.find(member.channel_id, member.user_id), undefined);
    });

    it('when members are listed, then oldest first, paged, per channel and per user', async () => {
      const repo = await make();
      const channelId = newId();
      const userId = newId();
      const first = aChannelMember({ channel_id: channelId, create_at: 1 });
      const second = aChannelMember({ channel_id: channelId, user_id: userId, create_at: 2 });
      const elsewhere = aChannelMember({ user_id: userId, create_at: 3 });
      for (const m of [second, elsewhere, first]) await repo.insert(m);
      assert.deepEqual(await repo.listByChannel(channelId, { page: 0, perPage: 10 }), [first, second]);
      assert.deepEqual(await repo.listByChannel(channelId, { page: 1, perPage: 1 }), [second]);
      assert.deepEqual(await repo.listByUser(userId), [second, elsewhere]);
      assert.deepEqual((await repo.channelIdsOfUser(userId)).sort(), [second.channel_id, elsewhere.channel_id].sort());
      assert.deepEqual(await repo.channelIdsOfUser(newId()), []);
    });

    it('when the member ids of a channel are asked for, then at most that many of them, whatever the order; none of other channels', async () => {
      const repo = await make();
      const channelId = newId();
      const members = [aChannelMember({ channel_id: channelId }), aChannelMember({ channel_id: channelId }), aChannelMember({ channel_id: channelId })];
      for (const m of [...members, aChannelMember()]) await repo.insert(m);
      assert.deepEqual((await repo.userIdsOfChannel(channelId, 10)).sort(), members.map((m) => m.user_id).sort());
      const two = await repo.userIdsOfChannel(channelId, 2);
      assert.equal(two.length, 2);
      for (const id of two) assert.ok(members.some((m) => m.user_id === id));
      assert.deepEqual(await repo.userIdsOfChannel(newId(), 10), []);
      assert.deepEqual(await repo.userIdsOfChannel(channelId, 0), []);
    });

    it('when a channel\'s member ids are read in pages, then each page is in user id order after the last id of the one before, every member once', async () => {
      const repo = await make();
      const channelId = newId();
      const members = Array.from({ length: 5 }, () => aChannelMember({ channel_id: channelId }));
      for (const m of [...members, aChannelMember()]) await repo.insert(m);
      const expected = members.map((m) => m.user_id).sort();
      const first = await repo.userIdsOfChannel(channelId, 2, '');
      assert.deepEqual(first, expected.slice(0, 2));
      const second = await repo.userIdsOfChannel(channelId, 2, first[1]);
      assert.deepEqual(second, expected.slice(2, 4));
      assert.deepEqual(await repo.userIdsOfChannel(channelId, 2, second[1]), expected.slice(4));
      assert.deepEqual(await repo.userIdsOfChannel(channelId, 2, expected[4]), []);
    });

    it('when a membership is updated, then only the view counters change; an unknown pair is undefined', async () => {
      const repo = await make();
      const member = aChannelMember({ last_viewed_at: 1, msg_count: 2, mention_count: 3 });
      await repo.insert(member);
      const updated = await repo.update(member.channel_id, member.user_id, { last_viewed_at: 50, msg_count: 7, mention_count: 0, last_update_at: 60 });
      const expected = { ...member, last_viewed_at: 50, msg_count: 7, mention_count: 0, last_update_at: 60 };
      assert.deepEqual(updated, expected);
      assert.deepEqual(await repo.find(member.channel_id, member.user_id), expected);
      assert.equal(await repo.update(newId(), member.user_id, { msg_count: 1 }), undefined);
    });
    it('when mentions are counted for named users, then only those members gain one (root posts: the root count too), non-members and others unchanged', async () => {
      const repo = await make();
      const channelId = newId();
      const [bob, carol, dave] = [aChannelMember({ channel_id: channelId }), aChannelMember({ channel_id: channelId, mention_count: 2, mention_count_root: 1 }), aChannelMember({ channel_id: channelId })];
      const elsewhere = aChannelMember({ user_id: bob.user_id });
      for (const m of [bob, carol, dave, elsewhere]) await repo.insert(m);
      await repo.incrementMentions(channelId, { userIds: [bob.user_id, carol.user_id, newId()] }, true, 70);
      await repo.incrementMentions(channelId, { userIds: [carol.user_id] }, false, 80);
      assert.deepEqual(await repo.find(channelId, bob.user_id), { ...bob, mention_count: 1, mention_count_root: 1, urgent_mention_count: 0, last_update_at: 70 });
      assert.deepEqual(await repo.find(channelId, carol.user_id), { ...carol, mention_count: 4, mention_count_root: 2, urgent_mention_count: 0, last_update_at: 80 });
      assert.deepEqual(await repo.find(channelId, dave.user_id), dave);
      assert.deepEqual(await repo.find(elsewhere.channel_id, bob.user_id), elsewhere);
      await repo.incrementMentions(channelId, { userIds: [] }, true, 90);
      assert.deepEqual(await repo.find(channelId, dave.user_id), dave);
    });
    it('when an urgent post mentions members, then their urgent_mention_count gains one too, and a view change sets it back', async () => {
      const repo = await make();
      const channelId = newId();
      const [bob, carol] = [aChannelMember({ channel_id: channelId }), aChannelMember({ channel_id: channelId })];
      for (const m of [bob, carol]) await repo.insert(m);
      await repo.incrementMentions(channelId, { userIds: [bob.user_id] }, true, 70, true);
      await repo.incrementMentions(channelId, { userIds: [bob.user_id, carol.user_id] }, true, 80, false);
      await repo.incrementMentions(channelId, { userIds: [bob.user_id] }, true, 90, true);
      assert.deepEqual(await repo.find(channelId, bob.user_id), { ...bob, mention_count: 3, mention_count_root: 3, urgent_mention_count: 2, last_update_at: 90 });
      assert.equal((await repo.find(channelId, carol.user_id))?.urgent_mention_count ?? 0, 0);
      await repo.update(channelId, bob.user_id, { mention_count: 0, mention_count_root: 0, urgent_mention_count: 0, last_update_at: 100 });
      assert.deepEqual(await repo.find(channelId, bob.user_id), { ...bob, mention_count: 0, mention_count_root: 0, urgent_mention_count: 0, last_update_at: 100 });
    });

    it('when notify props are updated, then they merge into the stored ones (other keys kept) and a missing membership answers undefined', async () => {
      const repo = await make();
      const member = aChannelMember();
      await repo.insert(member);
      assert.deepEqual(await repo.updateNotifyProps(member.channel_id, member.user_id, { desktop: 'all', ignore_channel_mentions: 'on' }, 70), { ...member, notify_props: { desktop: 'all', ignore_channel_mentions: 'on' }, last_update_at: 70 });
      await repo.updateNotifyProps(member.channel_id, member.user_id, { desktop: 'none', mark_unread: 'mention' }, 80);
      assert.deepEqual(await repo.find(member.channel_id, member.user_id), { ...member, notify_props: { desktop: 'none', ignore_channel_mentions: 'on', mark_unread: 'mention' }, last_update_at: 80 });
      assert.equal(await repo.updateNotifyProps(member.channel_id, newId(), { desktop: 'all' }, 90), undefined);
    });

  });
}
