import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { SessionRepository } from '../../domain/ports';
import { aSession, rejectsDuplicate, type Factory } from './fixtures';

export function sessionRepositoryContract(name: string, make: Factory<SessionRepository>): void {
  describe(`SessionRepository contract: ${name}`, () => {
    it('when a session is inserted, then it is found by id, by token hash and in its user list', async () => {
      const repo = await make();
      const session = aSession();
      await repo.insert(session);
      assert.deepEqual(await repo.findById(session.id), session);
      assert.deepEqual(await repo.findByTokenHash(session.tokenHash), session);
      assert.deepEqual(await repo.listByUser(session.userId), [session]);
      assert.equal(await repo.findByTokenHash('nope'), undefined);
    });

    it('when a token hash or id is taken, then insert throws DuplicateKeyError', async () => {
      const repo = await make();
      const session = aSession();
      await repo.insert(session);
      await rejectsDuplicate(() => repo.insert(aSession({ tokenHash: session.tokenHash })), 'tokenHash');
      await rejectsDuplicate(() => repo.insert(aSession({ id: session.id })), 'id');
    });

    it('when sessions are deleted by id, user or token id, then the deleted ids come back and lookups miss', async () => {
      const repo = await make();
      const userId = newId();
      const tokenId = newId();
      const a = aSession({ userId });
      const b = aSession({ userId, type: 'UserAccessToken', tokenId });
      const other = aSession();
      for (const s of [a, b, other]) await repo.insert(s);
      assert.deepEqual(await repo.deleteByTokenId(tokenId), [b.id]);
      assert.equal(await repo.findByTokenHash(b.tokenHash), undefined);
      assert.deepEqual(await repo.deleteByTokenId(''), []);
      assert.deepEqual(await repo.deleteByUser(userId), [a.id]);
      assert.deepEqual(await repo.listByUser(userId), []);
      assert.equal(await repo.deleteById(other.id), true);
      assert.equal(await repo.deleteById(other.id), false);
    });
  });
}
