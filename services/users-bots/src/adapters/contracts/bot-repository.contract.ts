import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { BotRepository } from '../../domain/ports';
import { aBot, rejectsDuplicate, type Factory } from './fixtures';

export function botRepositoryContract(name: string, make: Factory<BotRepository>): void {
  describe(`BotRepository contract: ${name}`, () => {
    it('when a bot is inserted twice, then the second insert throws DuplicateKeyError(id)', async () => {
      const repo = await make();
      const bot = aBot();
      await repo.insert(bot);
      assert.deepEqual(await repo.findById(bot.id), bot);
      assert.deepEqual(await repo.findByIds([bot.id, newId()]), [bot]);
      await rejectsDuplicate(() => repo.insert(aBot({ id: bot.id })), 'id');
    });

    it('when bots are listed, then owner filters, disabled bots and paging apply, oldest first', async () => {
      const repo = await make();
      const owner = newId();
      const other = newId();
      const a = aBot({ ownerId: owner, createAt: 1 });
      const b = aBot({ ownerId: owner, createAt: 2, deleteAt: 5 });
      const c = aBot({ ownerId: other, createAt: 3 });
      for (const bot of [c, b, a]) await repo.insert(bot);
      const ids = (list: { id: string }[]) => list.map((x) => x.id);
      assert.deepEqual(ids(await repo.list({ ownerId: owner, includeDeleted: false, page: 0, perPage: 10 })), [a.id]);
      assert.deepEqual(ids(await repo.list({ ownerId: owner, includeDeleted: true, page: 0, perPage: 10 })), [a.id, b.id]);
      assert.deepEqual(ids(await repo.list({ ownerIds: [owner, other], includeDeleted: true, page: 0, perPage: 2 })), [a.id, b.id]);
      assert.deepEqual(ids(await repo.list({ ownerIds: [owner, other], includeDeleted: true, page: 1, perPage: 2 })), [c.id]);
      assert.deepEqual(ids(await repo.findByOwner(owner)), [a.id, b.id]);
    });

    it('when a bot is updated or deleted, then reads follow', async () => {
      const repo = await make();
      const bot = aBot();
      await repo.insert(bot);
      const updated = await repo.update(bot.id, { description: 'new', deleteAt: 7 });
      assert.equal(updated?.description, 'new');
      assert.equal(updated?.displayName, bot.displayName);
      assert.equal((await repo.findById(bot.id))?.deleteAt, 7);
      assert.equal(await repo.update(newId(), { description: 'x' }), undefined);
      assert.equal(await repo.delete(bot.id), true);
      assert.equal(await repo.findById(bot.id), undefined);
    });
  });
}
