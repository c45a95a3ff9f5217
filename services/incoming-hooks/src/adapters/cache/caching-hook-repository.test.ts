import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { IncomingHook } from '../../domain/entities';
import { aHook } from '../contracts/repository-contracts';
import { MemoryIncomingHookRepository } from '../memory/incoming-hook.repository.memory';
import { CachingHookRepository } from './caching-hook-repository';

function countingStore() {
  const store = new MemoryIncomingHookRepository();
  let reads = 0;
  const findById = store.findById.bind(store);
  store.findById = async (id: string): Promise<IncomingHook | undefined> => {
    reads += 1;
    return findById(id);
  };
  return { store, reads: () => reads };
}

describe('CachingHookRepository (the hook lookup of every POST /hooks/{key})', () => {
  it('when a live hook is read twice within the TTL, then the store is read once', async () => {
    const s = countingStore();
    const hooks = new CachingHookRepository(s.store);
    const hook = aHook();
    await hooks.insert(hook);
    assert.equal((await hooks.findById(hook.id))?.id, hook.id);
    assert.equal((await hooks.findById(hook.id))?.id, hook.id);
    assert.equal(s.reads(), 1);
  });

  it('when the hook is deleted or changed through the repository, then the next read sees it at once', async () => {
    const s = countingStore();
    const hooks = new CachingHookRepository(s.store);
    const hook = aHook({ channelLocked: false });
    await hooks.insert(hook);
    await hooks.findById(hook.id);
    await hooks.update(hook.id, { channelLocked: true });
    assert.equal((await hooks.findById(hook.id))?.channelLocked, true);
    await hooks.update(hook.id, { deleteAt: 5 });
    assert.equal((await hooks.findById(hook.id))?.deleteAt, 5);
    assert.equal((await hooks.findById(hook.id))?.deleteAt, 5, 'a deleted hook is not cached: read again');
    assert.equal(s.reads(), 4);
  });

  it('when another replica deleted the hook, then it is seen once the TTL passed', async () => {
    const s = countingStore();
    let now = 0;
    const hooks = new CachingHookRepository(s.store, 1_000, () => now);
    const hook = aHook();
    await hooks.insert(hook);
    await hooks.findById(hook.id);
    await s.store.update(hook.id, { deleteAt: 7 });
    assert.equal((await hooks.findById(hook.id))?.deleteAt, 0, 'within the TTL');
    now = 1_001;
    assert.equal((await hooks.findById(hook.id))?.deleteAt, 7);
  });

  it('when unknown keys are looked up, then nothing is cached and a hook created later is found', async () => {
    const s = countingStore();
    const hooks = new CachingHookRepository(s.store);
    const id = newId();
    assert.equal(await hooks.findById(id), undefined);
    assert.equal(await hooks.findById(id), undefined);
    assert.equal(s.reads(), 2);
    await s.store.insert(aHook({ id }));
    assert.equal((await hooks.findById(id))?.id, id);
  });
});
