import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandWebhookRepository } from '../../domain/ports';
import { aCommandWebhook } from './command-fixtures';

/** The behaviour every CommandWebhookRepository adapter must have. `fresh` gives an empty repository. */
export function commandWebhookRepositoryContract(name: string, fresh: () => Promise<CommandWebhookRepository>): void {
  describe(`CommandWebhookRepository (${name})`, () => {
    it('when a hook is inserted, then it reads back by its hash; an unknown hash is undefined', async () => {
      const repo = await fresh();
      const hook = aCommandWebhook({ rootId: 'r'.repeat(26) });
      await repo.insert(hook);
      assert.deepEqual(await repo.findByHash(hook.idHash), hook);
      assert.equal(await repo.findByHash(aCommandWebhook().idHash), undefined);
    });

    it('when a hook is used, then each use counts once and the use past the limit is refused', async () => {
      const repo = await fresh();
      const hook = aCommandWebhook();
      await repo.insert(hook);
      const counts: number[] = [];
      for (let i = 0; i < 5; i += 1) counts.push((await repo.tryUse(hook.idHash, 5, 0))?.useCount ?? -1);
      assert.deepEqual(counts, [1, 2, 3, 4, 5]);
      assert.equal(await repo.tryUse(hook.idHash, 5, 0), undefined);
      assert.equal((await repo.findByHash(hook.idHash))?.useCount, 5);
      assert.equal(await repo.tryUse(aCommandWebhook().idHash, 5, 0), undefined);
    });

    it('when many uses race, then exactly the limit succeed', async () => {
      const repo = await fresh();
      const hook = aCommandWebhook();
      await repo.insert(hook);
      const results = await Promise.all(Array.from({ length: 20 }, () => repo.tryUse(hook.idHash, 5, 0)));
      assert.equal(results.filter((r) => r !== undefined).length, 5);
      assert.equal((await repo.findByHash(hook.idHash))?.useCount, 5);
    });

    it('when a hook is older than the window, then it cannot be used, and expired hooks are deleted', async () => {
      const repo = await fresh();
      const old = aCommandWebhook({ createAt: 1_000 });
      const young = aCommandWebhook({ createAt: 5_000 });
      await repo.insert(old);
      await repo.insert(young);
      assert.equal(await repo.tryUse(old.idHash, 5, 2_000), undefined);
      assert.equal((await repo.tryUse(young.idHash, 5, 2_000))?.useCount, 1);
      assert.equal(await repo.deleteCreatedBefore(2_000), 1);
      assert.equal(await repo.findByHash(old.idHash), undefined);
      assert.equal((await repo.findByHash(young.idHash))?.useCount, 1);
    });
  });
}
