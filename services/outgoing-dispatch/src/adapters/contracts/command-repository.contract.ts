import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { CommandRepository } from '../../domain/ports';
import { aCommand } from './command-fixtures';

/** The behaviour every CommandRepository adapter must have. `fresh` gives an empty repository. */
export function commandRepositoryContract(name: string, fresh: () => Promise<CommandRepository>): void {
  describe(`CommandRepository (${name})`, () => {
    it('when a command is inserted, then it reads back equal; an unknown id is undefined; the same id twice is refused', async () => {
      const repo = await fresh();
      const command = aCommand({ autoComplete: true, autoCompleteHint: '[x]', username: 'u', iconUrl: 'http://i/x.png', method: 'G' });
      await repo.insert(command);
      assert.deepEqual(await repo.findById(command.id), command);
      assert.equal(await repo.findById(newId()), undefined);
      await assert.rejects(repo.insert({ ...command, trigger: 'other' }));
      assert.deepEqual(await repo.findById(command.id), command);
    });

    it('when a command is replaced, then the new version is stored; an unknown id is false', async () => {
      const repo = await fresh();
      const command = aCommand();
      await repo.insert(command);
      const changed = { ...command, token: newId(), trigger: 'renamed', deleteAt: 7, updateAt: command.updateAt + 1 };
      assert.equal(await repo.replace(changed), true);
      assert.deepEqual(await repo.findById(command.id), changed);
      assert.equal(await repo.replace(aCommand()), false);
    });

    it('when a team is listed, then its live commands oldest first, optionally one creator only', async () => {
      const repo = await fresh();
      const teamId = newId();
      const creatorId = newId();
      const commands = [aCommand({ teamId }), aCommand({ teamId, creatorId }), aCommand({ teamId, deleteAt: 5 }), aCommand(), aCommand({ teamId, creatorId })];
      for (const command of [...commands].reverse()) await repo.insert(command);
      assert.deepEqual((await repo.listByTeam(teamId)).map((c) => c.id), [commands[0], commands[1], commands[4]].map((c) => c?.id));
      assert.deepEqual((await repo.listByTeam(teamId, creatorId)).map((c) => c.id), [commands[1], commands[4]].map((c) => c?.id));
      assert.deepEqual(await repo.listByTeam(newId()), []);
    });
  });
}
