import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { OutgoingHookRepository } from '../../domain/ports';
import { aHook } from './fixtures';

/** The behaviour every OutgoingHookRepository adapter must have. `fresh` gives an empty repository. */
export function outgoingHookRepositoryContract(name: string, fresh: () => Promise<OutgoingHookRepository>): void {
  describe(`OutgoingHookRepository (${name})`, () => {
    it('when a hook is inserted, then it reads back equal, arrays and all', async () => {
      const repo = await fresh();
      const hook = aHook({ triggerWords: ['a', 'b'], callbackUrls: ['http://x/1', 'http://x/2'] });
      await repo.insert(hook);
      assert.deepEqual(await repo.findById(hook.id), hook);
      assert.equal(await repo.findById(newId()), undefined);
    });

    it('when a hook is replaced, then the new version is stored; an unknown id is false', async () => {
      const repo = await fresh();
      const hook = aHook();
      await repo.insert(hook);
      const changed = { ...hook, token: newId(), triggerWords: [], disabledAt: 5, updateAt: hook.updateAt + 1 };
      assert.equal(await repo.replace(changed), true);
      assert.deepEqual(await repo.findById(hook.id), changed);
      assert.equal(await repo.replace(aHook()), false);
    });

    it('when hooks are listed, then deleted ones are skipped, filters apply and pages go oldest first', async () => {
      const repo = await fresh();
      const teamId = newId();
      const channelId = newId();
      const creatorId = newId();
      const hooks = [aHook({ teamId }), aHook({ teamId, channelId }), aHook({ teamId, creatorId }), aHook({ teamId, deleteAt: 9 }), aHook()];
      for (const hook of hooks) await repo.insert(hook);
      assert.deepEqual((await repo.list({ teamId, page: 0, perPage: 60 })).map((h) => h.id), hooks.slice(0, 3).map((h) => h.id));
      assert.deepEqual((await repo.list({ channelId, page: 0, perPage: 60 })).map((h) => h.id), [hooks[1]?.id]);
      assert.deepEqual((await repo.list({ teamId, creatorId, page: 0, perPage: 60 })).map((h) => h.id), [hooks[2]?.id]);
      assert.deepEqual((await repo.list({ teamId, page: 1, perPage: 2 })).map((h) => h.id), [hooks[2]?.id]);
      assert.deepEqual(await repo.list({ teamId, page: 0, perPage: 0 }), []);
      assert.equal((await repo.list({ page: 0, perPage: 60 })).length, 4);
    });

    it('when hooks are found by team, then only that team and not deleted ones', async () => {
      const repo = await fresh();
      const teamId = newId();
      const live = aHook({ teamId });
      await repo.insert(live);
      await repo.insert(aHook({ teamId, deleteAt: 1 }));
      await repo.insert(aHook());
      assert.deepEqual(await repo.findByTeam(teamId), [live]);
    });

    it("when bot hooks are asked for, then every team's live bot hooks come back (legacy and deleted ones do not), extension fields and all", async () => {
      const repo = await fresh();
      const botHook = aHook({ botUserId: newId(), eventTypes: ['posted', 'reaction_added'], signingAlgorithm: 'ed25519', signingKey: 'whsk_x' });
      const other = aHook({ botUserId: newId() });
      await repo.insert(botHook);
      await repo.insert(other);
      await repo.insert(aHook());
      await repo.insert(aHook({ botUserId: newId(), deleteAt: 3 }));
      const found = (await repo.findBotHooks()).filter((h) => h.id === botHook.id || h.id === other.id);
      assert.deepEqual(found.sort((a, b) => a.createAt - b.createAt), [botHook, other]);
      assert.ok((await repo.findBotHooks()).every((h) => h.botUserId !== '' && h.deleteAt === 0));
    });
  });
}
