import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { UserRepository } from '../../domain/ports';
import { aUser, rejectsDuplicate, type Factory } from './fixtures';

/** The behaviour every UserRepository adapter must show. */
export function userRepositoryContract(name: string, make: Factory<UserRepository>): void {
  describe(`UserRepository contract: ${name}`, () => {
    it('when a user is inserted, then it is found by id, username, email and in lists, as a copy', async () => {
      const repo = await make();
      const user = aUser({ props: { a: 'b' } });
      await repo.insert(user);
      assert.deepEqual(await repo.findById(user.id), user);
      assert.deepEqual(await repo.findByUsername(user.username), user);
      assert.deepEqual(await repo.findByEmail(user.email), user);
      assert.deepEqual(await repo.findByIds([user.id, newId()]), [user]);
      assert.deepEqual(await repo.findByUsernames([user.username, 'nobody-here']), [user]);
      const found = await repo.findById(user.id);
      (found!.props as Record<string, string>).a = 'changed';
      assert.equal((await repo.findById(user.id))?.props.a, 'b');
      assert.equal(await repo.findById(newId()), undefined);
    });

    it('when the id, username or email is taken, then insert throws DuplicateKeyError naming it and stores nothing', async () => {
      const repo = await make();
      const user = aUser();
      await repo.insert(user);
      await rejectsDuplicate(() => repo.insert(aUser({ username: user.username })), 'username');
      await rejectsDuplicate(() => repo.insert(aUser({ email: user.email })), 'email');
      await rejectsDuplicate(() => repo.insert(aUser({ id: user.id })), 'id');
      assert.equal(await repo.countHumans(), 1);
    });

    it('when a user is updated, then only the given fields change and unique keys still hold', async () => {
      const repo = await make();
      const a = aUser();
      const b = aUser();
      await repo.insert(a);
      await repo.insert(b);
      const updated = await repo.update(a.id, { roles: 'system_user system_admin', deleteAt: 5 });
      assert.equal(updated?.roles, 'system_user system_admin');
      assert.equal(updated?.username, a.username);
      await rejectsDuplicate(() => repo.update(a.id, { username: b.username }), 'username');
      await rejectsDuplicate(() => repo.update(a.id, { email: b.email }), 'email');
      assert.equal((await repo.findById(a.id))?.username, a.username);
      const renamed = await repo.update(a.id, { username: `${a.username}x` });
      assert.equal((await repo.findByUsername(`${a.username}x`))?.id, a.id);
      assert.equal(await repo.findByUsername(a.username), undefined);
      assert.ok(renamed);
      assert.equal(await repo.update(newId(), { roles: 'x' }), undefined);
    });

    it('when login attempts are reserved, then each adds one until the limit, and a reset frees them again', async () => {
      const repo = await make();
      const user = aUser({ failedAttempts: 1 });
      await repo.insert(user);
      assert.equal(await repo.reserveLoginAttempt(user.id, 3), true);
      assert.equal(await repo.reserveLoginAttempt(user.id, 3), true);
      assert.equal(await repo.reserveLoginAttempt(user.id, 3), false);
      assert.equal((await repo.findById(user.id))?.failedAttempts, 3);
      assert.equal(await repo.reserveLoginAttempt(user.id, 4), true, 'a higher limit frees one more');
      await repo.update(user.id, { failedAttempts: 0 });
      assert.equal(await repo.reserveLoginAttempt(user.id, 4), true);
      assert.equal((await repo.findById(user.id))?.failedAttempts, 1);
      assert.equal(await repo.reserveLoginAttempt(newId(), 10), false, 'a missing user');
    });

    it('when 30 login attempts are reserved at once with a limit of 10, then exactly 10 pass and the count is 10', async () => {
      const repo = await make();
      const user = aUser();
      await repo.insert(user);
      const results = await Promise.all(Array.from({ length: 30 }, () => repo.reserveLoginAttempt(user.id, 10)));
      assert.equal(results.filter(Boolean).length, 10);
      assert.equal((await repo.findById(user.id))?.failedAttempts, 10);
    });

    it('when a user is deleted, then its username and email are free again', async () => {
      const repo = await make();
      const user = aUser();
      await repo.insert(user);
      assert.equal(await repo.delete(user.id), true);
      assert.equal(await repo.delete(user.id), false);
      await repo.insert(aUser({ username: user.username, email: user.email }));
    });

    it('when humans and bots exist, then countHumans counts deactivated humans and skips bots', async () => {
      const repo = await make();
      await repo.insert(aUser());
      await repo.insert(aUser({ deleteAt: 10 }));
      await repo.insert(aUser({ isBot: true }));
      assert.equal(await repo.countHumans(), 2);
    });

    it('when searching, then filters, sort and paging apply', async () => {
      const repo = await make();
      const alice = aUser({ username: `a-${newId()}`, roles: 'system_user system_admin', createAt: 3 });
      const bob = aUser({ username: `b-${newId()}`, roles: 'system_user', deleteAt: 9, createAt: 1, updateAt: 50 });
      const carol = aUser({ username: `c-${newId()}`, roles: 'system_user system_post_all', createAt: 2, updateAt: 100 });
      for (const u of [carol, alice, bob]) await repo.insert(u);
      const ids = [alice.id, bob.id, carol.id];
      const names = (list: { username: string }[]) => list.map((u) => u.username);
      assert.deepEqual(names(await repo.search({ ids, page: 0, perPage: 10 })), [alice.username, bob.username, carol.username]);
      assert.deepEqual(names(await repo.search({ ids, page: 1, perPage: 2 })), [carol.username]);
      assert.deepEqual(names(await repo.search({ ids, active: true, page: 0, perPage: 10 })), [alice.username, carol.username]);
      assert.deepEqual(names(await repo.search({ ids, active: false, page: 0, perPage: 10 })), [bob.username]);
      assert.deepEqual(names(await repo.search({ ids, role: 'system_admin', page: 0, perPage: 10 })), [alice.username]);
      assert.deepEqual(names(await repo.search({ ids, anyRole: ['system_admin', 'system_post_all'], page: 0, perPage: 10 })), [alice.username, carol.username]);
      assert.deepEqual(names(await repo.search({ ids, excludeIds: [alice.id], page: 0, perPage: 10 })), [bob.username, carol.username]);
      assert.deepEqual(names(await repo.search({ ids, sort: 'create_at', page: 0, perPage: 10 })), [alice.username, carol.username, bob.username]);
      assert.deepEqual(names(await repo.search({ ids, updatedSince: 60, page: 0, perPage: 10 })), [carol.username]);
      assert.deepEqual(await repo.search({ ids: [], page: 0, perPage: 10 }), []);
    });
  });
}
