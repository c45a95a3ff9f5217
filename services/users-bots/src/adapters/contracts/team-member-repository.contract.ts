import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { TeamMemberRepository } from '../../domain/ports';
import { aMember, rejectsDuplicate, type Factory } from './fixtures';

export function teamMemberRepositoryContract(name: string, make: Factory<TeamMemberRepository>): void {
  describe(`TeamMemberRepository contract: ${name}`, () => {
    it('when a member is inserted twice, then the second is a DuplicateKeyError(member)', async () => {
      const repo = await make();
      const member = aMember();
      await repo.insert(member);
      assert.deepEqual(await repo.find(member.teamId, member.userId), member);
      await rejectsDuplicate(() => repo.insert({ ...member }), 'member');
    });

    it('when members come and go, then lists, counts and id lists show only active ones', async () => {
      const repo = await make();
      const teamId = newId();
      const [u1, u2, u3] = [newId(), newId(), newId()];
      await repo.insert(aMember({ teamId, userId: u1 }));
      await repo.insert(aMember({ teamId, userId: u2 }));
      await repo.insert(aMember({ teamId, userId: u3, deleteAt: 9 }));
      await repo.insert(aMember({ userId: u1 }));
      assert.deepEqual((await repo.listByTeam(teamId, { page: 0, perPage: 10 })).map((m) => m.userId), [u1, u2]);
      assert.deepEqual((await repo.listByTeam(teamId, { page: 1, perPage: 1 })).map((m) => m.userId), [u2]);
      assert.equal(await repo.countActive(teamId), 2);
      assert.deepEqual((await repo.userIdsInTeam(teamId)).sort(), [u1, u2].sort());
      assert.equal((await repo.listByUser(u1)).length, 2);
      const withTeam = await repo.userIdsWithAnyTeam();
      assert.ok(withTeam.includes(u1) && withTeam.includes(u2) && !withTeam.includes(u3));
      const back = await repo.update(teamId, u3, { deleteAt: 0 });
      assert.equal(back?.deleteAt, 0);
      assert.equal(await repo.countActive(teamId), 3);
      assert.equal(await repo.update(teamId, newId(), { deleteAt: 0 }), undefined);
      assert.equal(await repo.deleteByUser(u1), 2);
      assert.equal(await repo.find(teamId, u1), undefined);
    });
  });
}
