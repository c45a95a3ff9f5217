import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '@switchyard/ids';
import type { MembershipSource } from '../../domain/ports';

/** Who belongs where, as the owning services know it (team members with `deleteAt > 0` have left). */
export interface MembershipSeed {
  readonly channels: Readonly<Record<string, readonly string[]>>;
  readonly teamMembers: readonly { readonly teamId: string; readonly userId: string; readonly deleteAt: number }[];
}

/** What every MembershipSource adapter must answer (realtime's delivery filter relies on it). */
export function membershipSourceContract(name: string, make: (seed: MembershipSeed) => Promise<MembershipSource>): void {
  describe(`MembershipSource contract: ${name}`, () => {
    const [channel, emptyChannel, team, alice, bob, carol] = [newId(), newId(), newId(), newId(), newId(), newId()];
    const seed: MembershipSeed = {
      channels: { [channel]: [alice, bob], [emptyChannel]: [] },
      teamMembers: [
        { teamId: team, userId: alice, deleteAt: 0 },
        { teamId: team, userId: carol, deleteAt: 1_700_000_000_000 },
      ],
    };

    it('when a channel exists, then every member id; an existing channel without members is an empty list', async () => {
      const source = await make(seed);
      assert.deepEqual([...((await source.channelMemberIds(channel)) ?? [])].sort(), [alice, bob].sort());
      assert.deepEqual(await source.channelMemberIds(emptyChannel), []);
    });

    it('when a channel does not exist, then undefined (not an empty list)', async () => {
      const source = await make(seed);
      assert.equal(await source.channelMemberIds(newId()), undefined);
    });

    it('when team membership is asked, then true only for an active member; one who left, a stranger or an unknown team is false', async () => {
      const source = await make(seed);
      assert.equal(await source.isTeamMember(team, alice), true);
      assert.equal(await source.isTeamMember(team, carol), false, 'left the team');
      assert.equal(await source.isTeamMember(team, bob), false, 'never joined');
      assert.equal(await source.isTeamMember(newId(), alice), false, 'unknown team');
    });
  });
}
