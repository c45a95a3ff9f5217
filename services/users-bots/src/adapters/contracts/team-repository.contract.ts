import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { TeamRepository } from '../../domain/ports';
import { aTeam, rejectsDuplicate, type Factory } from './fixtures';

export function teamRepositoryContract(name: string, make: Factory<TeamRepository>): void {
  describe(`TeamRepository contract: ${name}`, () => {
    it('when a team is inserted, then it is found by id, name and ids; a taken name or id is a DuplicateKeyError', async () => {
      const repo = await make();
      const team = aTeam();
      await repo.insert(team);
      assert.deepEqual(await repo.findById(team.id), team);
      assert.deepEqual(await repo.findByName(team.name), team);
      assert.deepEqual(await repo.findByIds([newId(), team.id]), [team]);
      await rejectsDuplicate(() => repo.insert(aTeam({ name: team.name })), 'name');
      await rejectsDuplicate(() => repo.insert(aTeam({ id: team.id })), 'id');
      assert.equal(await repo.findByName('missing-team'), undefined);
    });
  });
}
