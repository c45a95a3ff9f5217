import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ChannelMemberRepository, ChannelRepository } from '../../domain/ports';
import type { SearchScope } from '../../domain/search/search-scope.port';
import { aChannel, aChannelMember, type Factory } from './fixtures';

/** A search scope and the repositories of the same store (memberships written through them must show in the scope). */
export interface ScopeStore {
  readonly channels: ChannelRepository;
  readonly channelMembers: ChannelMemberRepository;
  readonly scope: SearchScope;
}

export function searchScopeContract(name: string, make: Factory<ScopeStore>): void {
  describe(`SearchScope contract: ${name}`, () => {
    it('when a user belongs to channels of two teams, DMs and an archived channel, then a team search reads that team\'s and the DMs, archived only on request', async () => {
      const { channels, channelMembers, scope } = await make();
      const [me, other, teamA, teamB] = [newId(), newId(), newId(), newId()];
      const openA = aChannel({ team_id: teamA, type: 'O' });
      const privateA = aChannel({ team_id: teamA, type: 'P' });
      const archivedA = aChannel({ team_id: teamA, type: 'O', delete_at: 10 });
      const openB = aChannel({ team_id: teamB, type: 'O' });
      const direct = aChannel({ team_id: '', type: 'D' });
      const notMine = aChannel({ team_id: teamA, type: 'O' });
      for (const c of [openA, privateA, archivedA, openB, direct, notMine]) await channels.insert(c);
      for (const c of [openA, privateA, archivedA, openB, direct]) await channelMembers.insert(aChannelMember({ channel_id: c.id, user_id: me }));
      await channelMembers.insert(aChannelMember({ channel_id: notMine.id, user_id: other }));
      const sorted = (ids: readonly string[]): string[] => [...ids].sort();
      assert.deepEqual(sorted(await scope.readableChannelIds(me, teamA, false)), sorted([openA.id, privateA.id, direct.id]));
      assert.deepEqual(sorted(await scope.readableChannelIds(me, teamA, true)), sorted([openA.id, privateA.id, archivedA.id, direct.id]));
      assert.deepEqual(sorted(await scope.readableChannelIds(me, undefined, false)), sorted([openA.id, privateA.id, openB.id, direct.id]));
      assert.deepEqual(await scope.readableChannelIds(newId(), teamA, true), []);
      assert.deepEqual(sorted(await scope.readableChannelIds(other, teamA, false)), [notMine.id]);
    });

    it('when a membership is removed, then the next scope no longer has that channel', async () => {
      const { channels, channelMembers, scope } = await make();
      const [me, team] = [newId(), newId()];
      const channel = aChannel({ team_id: team, type: 'P' });
      await channels.insert(channel);
      await channelMembers.insert(aChannelMember({ channel_id: channel.id, user_id: me }));
      assert.deepEqual(await scope.readableChannelIds(me, team, false), [channel.id]);
      await channelMembers.delete(channel.id, me);
      assert.deepEqual(await scope.readableChannelIds(me, team, false), []);
    });

    it('when scopes were read before, then each later membership or archive change shows in the next scope at once', async () => {
      const { channels, channelMembers, scope } = await make();
      const [me, other, team] = [newId(), newId(), newId()];
      const a = aChannel({ team_id: team, type: 'O' });
      const b = aChannel({ team_id: team, type: 'P' });
      for (const c of [a, b]) await channels.insert(c);
      await channelMembers.insert(aChannelMember({ channel_id: a.id, user_id: me }));
      await channelMembers.insert(aChannelMember({ channel_id: b.id, user_id: other }));
      const sorted = async (userId: string, archived = false): Promise<string[]> => [...(await scope.readableChannelIds(userId, team, archived))].sort();
      assert.deepEqual(await sorted(me), [a.id]);
      assert.deepEqual(await sorted(other), [b.id]);
      await channelMembers.insert(aChannelMember({ channel_id: b.id, user_id: me }));
      assert.deepEqual(await sorted(me), [a.id, b.id].sort());
      await channels.update(b.id, { delete_at: 50 });
      assert.deepEqual(await sorted(me), [a.id]);
      assert.deepEqual(await sorted(other), []);
      assert.deepEqual(await sorted(me, true), [a.id, b.id].sort());
      await channels.update(b.id, { delete_at: 0 });
      assert.deepEqual(await sorted(other), [b.id]);
      await channelMembers.delete(b.id, other);
      assert.deepEqual(await sorted(other), []);
      assert.deepEqual(await sorted(me), [a.id, b.id].sort());
      // A write that cannot change a scope (a post counted on the channel) leaves it as it was.
      await channels.recordPost(a.id, 1_000, true);
      assert.deepEqual(await sorted(me), [a.id, b.id].sort());
    });
  });
}
