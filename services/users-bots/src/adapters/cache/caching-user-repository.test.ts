import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { newUser, type User } from '../../domain/entities';
import { memoryRepositories } from '../memory';
import { CachingUserRepository } from './caching-user-repository';

/** The memory store, counting findById calls, optionally held until released. */
function countingStore() {
  const store = memoryRepositories().users;
  let reads = 0;
  let gate: Promise<void> | undefined;
  const findById = store.findById.bind(store);
  store.findById = async (id: string): Promise<User | undefined> => {
    reads += 1;
    const user = await findById(id);
    if (gate) await gate;
    return user;
  };
  return {
    store,
    reads: () => reads,
    hold: () => {
      let release = (): void => undefined;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('CachingUserRepository (the GET /users/me read cache)', () => {
  it('when a user is read twice through cached, then the store is read once; findById always reads the store', async () => {
    const s = countingStore();
    const users = new CachingUserRepository(s.store);
    const id = newId();
    await users.insert(newUser({ id, username: 'alice', email: 'a@example.com', createAt: 1 }));
    assert.equal((await users.cached(id))?.username, 'alice');
    assert.equal((await users.cached(id))?.username, 'alice');
    assert.equal(s.reads(), 1);
    await users.findById(id);
    assert.equal(s.reads(), 2);
  });

  it('when the user changes through the repository or evict is called, then the next cached read sees the store', async () => {
    const s = countingStore();
    const users = new CachingUserRepository(s.store);
    const id = newId();
    await users.insert(newUser({ id, username: 'bob', email: 'b@example.com', createAt: 1 }));
    await users.cached(id);
    await users.update(id, { nickname: 'bobby' });
    assert.equal((await users.cached(id))?.nickname, 'bobby');
    await s.store.update(id, { nickname: 'changed elsewhere' });
    assert.equal((await users.cached(id))?.nickname, 'bobby', 'a change behind its back is not seen until evicted');
    users.evict(id);
    assert.equal((await users.cached(id))?.nickname, 'changed elsewhere');
  });

  it('when an eviction happens while a read is on its way, then that read is not cached', async () => {
    const s = countingStore();
    const users = new CachingUserRepository(s.store);
    const id = newId();
    await users.insert(newUser({ id, username: 'carol', email: 'c@example.com', createAt: 1 }));
    const release = s.hold();
    const reading = users.cached(id);
    users.evict(id);
    release();
    await reading;
    await users.cached(id);
    assert.equal(s.reads(), 2);
  });

  it('when the TTL passed, then the store is read again', async () => {
    const s = countingStore();
    let now = 1_000;
    const users = new CachingUserRepository(s.store, 500, () => now);
    const id = newId();
    await users.insert(newUser({ id, username: 'dave', email: 'd@example.com', createAt: 1 }));
    await users.cached(id);
    now += 499;
    await users.cached(id);
    now += 2;
    await users.cached(id);
    assert.equal(s.reads(), 2);
  });
});
