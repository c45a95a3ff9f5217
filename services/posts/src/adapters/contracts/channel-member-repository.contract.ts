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
  });
}
