import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { AccessTokenRepository } from '../../domain/ports';
import { aToken, rejectsDuplicate, type Factory } from './fixtures';

export function accessTokenRepositoryContract(name: string, make: Factory<AccessTokenRepository>): void {
  describe(`AccessTokenRepository contract: ${name}`, () => {
    it('when tokens are inserted, then they are found by id and hash and listed oldest first, paged', async () => {
      const repo = await make();
      const userId = newId();
      const first = aToken({ userId, createAt: 1 });
      const second = aToken({ userId, createAt: 2 });
      await repo.insert(second);
      await repo.insert(first);
      await repo.insert(aToken());
      assert.deepEqual(await repo.findById(first.id), first);
      assert.deepEqual(await repo.findByTokenHash(second.tokenHash), second);
      assert.deepEqual(await repo.listByUser(userId, { page: 0, perPage: 10 }), [first, second]);
      assert.deepEqual(await repo.listByUser(userId, { page: 1, perPage: 1 }), [second]);
      assert.ok((await repo.listAll({ page: 0, perPage: 100 })).length >= 3);
    });

    it('when a token hash or id is taken, then insert throws DuplicateKeyError', async () => {
      const repo = await make();
      const token = aToken();
      await repo.insert(token);
      await rejectsDuplicate(() => repo.insert(aToken({ tokenHash: token.tokenHash })), 'tokenHash');
      await rejectsDuplicate(() => repo.insert(aToken({ id: token.id })), 'id');
    });

    it('when a token is disabled, enabled and deleted, then lookups follow', async () => {
      const repo = await make();
      const token = aToken();
      await repo.insert(token);
      assert.equal((await repo.setActive(token.id, false))?.isActive, false);
      assert.equal((await repo.findById(token.id))?.isActive, false);
      assert.equal((await repo.setActive(token.id, true))?.isActive, true);
      assert.equal(await repo.setActive(newId(), true), undefined);
      assert.equal(await repo.deleteById(token.id), true);
      assert.equal(await repo.findByTokenHash(token.tokenHash), undefined);
      const userId = newId();
      const other = aToken({ userId });
      await repo.insert(other);
      assert.deepEqual(await repo.deleteByUser(userId), [other.id]);
    });
  });
}
