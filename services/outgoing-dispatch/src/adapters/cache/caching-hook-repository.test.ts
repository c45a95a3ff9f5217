import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { OutgoingHook } from '../../domain/entities';
import type { OutgoingHookRepository } from '../../domain/ports';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { aHook } from '../contracts/fixtures';
import { MemoryOutgoingHookRepository } from '../memory';
import { CachingHookRepository } from './caching-hook-repository';

const quiet = { hookChanged: async () => undefined };

outgoingHookRepositoryContract('memory behind the hooks-by-team cache', async () => new CachingHookRepository(new MemoryOutgoingHookRepository(), quiet));

/** A store that counts findByTeam calls and can hold one until released. */
class CountingStore extends MemoryOutgoingHookRepository {
  public reads = 0;
  public hold: Promise<void> | undefined;

  public override async findByTeam(teamId: string): Promise<OutgoingHook[]> {
    this.reads += 1;
    const found = await super.findByTeam(teamId);
    if (this.hold) await this.hold;
    return found;
  }
}

describe('CachingHookRepository (hooks by team)', () => {
  const setup = (ttlMs = 30_000) => {
    const store = new CountingStore();
    const announced: { id: string; teamId: string }[] = [];
    let now = 1_000;
    const repo = new CachingHookRepository(store, { hookChanged: async (hook) => void announced.push({ ...hook }) }, ttlMs, () => now);
    return { store, repo, announced, advance: (ms: number) => (now += ms) };
  };

  it('when a team is read twice within the TTL, then the store is read once, also when it has no hooks', async () => {
    const { store, repo } = setup();
    const teamId = newId();
    assert.deepEqual(await repo.findByTeam(teamId), []);
    assert.deepEqual(await repo.findByTeam(teamId), []);
    assert.equal(store.reads, 1);
  });

  it('when the TTL has passed, then the team is read again', async () => {
    const { store, repo, advance } = setup(1_000);
    const teamId = newId();
    await repo.findByTeam(teamId);
    advance(1_000);
    await repo.findByTeam(teamId);
    assert.equal(store.reads, 2);
  });

  it('when a hook is created, replaced or deleted through it, then its team is read anew and the change is announced once', async () => {
    const { repo, announced } = setup();
    const teamId = newId();
    assert.deepEqual(await repo.findByTeam(teamId), []);
    const hook = aHook({ teamId });
    await repo.insert(hook);
    assert.deepEqual((await repo.findByTeam(teamId)).map((h) => h.id), [hook.id]);
    await repo.replace({ ...hook, deleteAt: 5 });
    assert.deepEqual(await repo.findByTeam(teamId), []);
    assert.deepEqual(announced, [
      { id: hook.id, teamId },
      { id: hook.id, teamId },
    ]);
  });

  it('when another replica announces a change (evictTeam), then the next read goes to the store', async () => {
    const { store, repo } = setup();
    const teamId = newId();
    await repo.findByTeam(teamId);
    await store.insert(aHook({ teamId }));
    assert.equal((await repo.findByTeam(teamId)).length, 0, 'cached');
    repo.evictTeam(teamId);
    assert.equal((await repo.findByTeam(teamId)).length, 1);
  });

  it('when an eviction happens while a read is in flight, then that read is not cached (no stale entry outlives the change)', async () => {
    const { store, repo } = setup();
    const teamId = newId();
    let release = (): void => undefined;
    store.hold = new Promise<void>((resolve) => (release = resolve));
    const reading = repo.findByTeam(teamId);
    await new Promise((r) => setImmediate(r));
    await store.insert(aHook({ teamId }));
    repo.evictTeam(teamId);
    store.hold = undefined;
    release();
    assert.deepEqual(await reading, []);
    assert.equal((await repo.findByTeam(teamId)).length, 1, 'the overlapping read of the old state was not kept');
  });

  it('when a caller changes the returned array, then the cached hooks stay as read', async () => {
    const { repo } = setup();
    const teamId = newId();
    const store: OutgoingHookRepository = repo;
    await store.insert(aHook({ teamId }));
    const first = await repo.findByTeam(teamId);
    first.length = 0;
    assert.equal((await repo.findByTeam(teamId)).length, 1);
  });
});
