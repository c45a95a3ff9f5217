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
      const sorted = (ids: string[]): string[] => [...ids].sort();
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
  });
}
