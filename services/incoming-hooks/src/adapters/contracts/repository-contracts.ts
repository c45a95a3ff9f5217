import { it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { IncomingHook } from '../../domain/entities';
import { isDuplicateKeyError } from '../../domain/errors';
import { RELEASED_OWNER, type IdempotencyRepository, type IncomingHookRepository } from '../../domain/ports';

export function aHook(overrides: Partial<IncomingHook> = {}): IncomingHook {
  return {
    id: newId(),
    createAt: 1_000,
    updateAt: 1_000,
    deleteAt: 0,
    userId: newId(),
    channelId: newId(),
    teamId: newId(),
    displayName: 'CI',
    description: '',
    username: '',
    iconUrl: '',
    channelLocked: false,
    reactionNotifications: false,
    ...overrides,
  };
}

/** The behaviour every IncomingHookRepository adapter guarantees. `fresh` gives an empty repository. */
export function incomingHookRepositoryContract(fresh: () => Promise<IncomingHookRepository>): void {
  it('when a hook is inserted, then findById returns an equal plain copy; a second insert of the id is DuplicateKeyError(id)', async () => {
    const repo = await fresh();
    const hook = aHook({ reactionNotifications: true, channelLocked: true });
    await repo.insert(hook);
    assert.deepEqual(await repo.findById(hook.id), hook);
    await assert.rejects(repo.insert(hook), (e: unknown) => isDuplicateKeyError(e) && e.key === 'id');
    assert.equal(await repo.findById(newId()), undefined);
  });

  it('when updated, then only the given fields change and the result is returned; unknown ids give undefined', async () => {
    const repo = await fresh();
    const hook = aHook();
    await repo.insert(hook);
    const updated = await repo.update(hook.id, { displayName: 'New', deleteAt: 5, reactionNotifications: true });
    assert.deepEqual(updated, { ...hook, displayName: 'New', deleteAt: 5, reactionNotifications: true });
    assert.deepEqual(await repo.findById(hook.id), updated);
    assert.equal(await repo.update(newId(), { displayName: 'x' }), undefined);
  });

  it('when a hook has transform fields, then they round-trip, and an update to null and empty lists is kept as such', async () => {
    const repo = await fresh();
    const hook = aHook({ transform: { jsonata: '{"text": body.a}' }, onlyEvents: ['push', 'release'], excludeEvents: ['ping'], transformSecret: 's3cret' });
    await repo.insert(hook);
    assert.deepEqual(await repo.findById(hook.id), hook);
    const templated = await repo.update(hook.id, { transform: { template: 'github' } });
    assert.deepEqual(templated, { ...hook, transform: { template: 'github' } });
    const cleared = await repo.update(hook.id, { transform: null, onlyEvents: [], excludeEvents: [], transformSecret: '' });
    assert.deepEqual(cleared, { ...hook, transform: null, onlyEvents: [], excludeEvents: [], transformSecret: '' });
    assert.deepEqual(await repo.findById(hook.id), cleared);
  });

  it('when listing, then live hooks only, filtered by team and owner, oldest first, paged, with matching counts', async () => {
    const repo = await fresh();
    const team = newId();
    const owner = newId();
    const a = aHook({ teamId: team, userId: owner, createAt: 3 });
    const b = aHook({ teamId: team, createAt: 1 });
    const c = aHook({ teamId: team, userId: owner, createAt: 2 });
    const deleted = aHook({ teamId: team, userId: owner, createAt: 0, deleteAt: 9 });
    const elsewhere = aHook({ userId: owner, createAt: 4 });
    for (const hook of [a, b, c, deleted, elsewhere]) await repo.insert(hook);
    assert.deepEqual((await repo.list({ teamId: team, page: 0, perPage: 10 })).map((x) => x.id), [b.id, c.id, a.id]);
    assert.deepEqual((await repo.list({ teamId: team, userId: owner, page: 0, perPage: 10 })).map((x) => x.id), [c.id, a.id]);
    assert.deepEqual((await repo.list({ userId: owner, page: 0, perPage: 10 })).map((x) => x.id), [c.id, a.id, elsewhere.id]);
    assert.deepEqual((await repo.list({ teamId: team, page: 1, perPage: 2 })).map((x) => x.id), [a.id]);
    assert.deepEqual(await repo.list({ teamId: team, page: 0, perPage: 0 }), []);
    assert.equal(await repo.count({ teamId: team }), 3);
    assert.equal(await repo.count({ userId: owner }), 3);
    assert.equal(await repo.count({ teamId: team, userId: owner }), 2);
  });
}

/** The behaviour every IdempotencyRepository adapter guarantees. */
export function idempotencyRepositoryContract(fresh: () => Promise<IdempotencyRepository>): void {
  const response = { status: 200, contentType: 'text/plain', body: 'ok' };

  it('when a key is reserved twice, then the second sees the first record; once completed, its response', async () => {
    const repo = await fresh();
    const hookId = newId();
    assert.deepEqual(await repo.reserve({ hookId, key: 'k', owner: 'o1', createAt: 100 }, 0), { kind: 'reserved', since: 100 });
    const second = await repo.reserve({ hookId, key: 'k', owner: 'o2', createAt: 101 }, 0);
    assert.equal(second.kind, 'existing');
    assert.equal(second.kind === 'existing' ? second.record.owner : '', 'o1');
    assert.equal(second.kind === 'existing' ? second.record.response : 'x', undefined);
    await repo.complete(hookId, 'k', 'o1', response);
    const third = await repo.reserve({ hookId, key: 'k', owner: 'o3', createAt: 102 }, 0);
    assert.deepEqual(third.kind === 'existing' ? third.record.response : undefined, response);
  });

  it('when concurrent reservations race, then exactly one wins', async () => {
    const repo = await fresh();
    const hookId = newId();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => repo.reserve({ hookId, key: 'race', owner: `o${i}`, createAt: 100 }, 0)));
    assert.equal(results.filter((r) => r.kind === 'reserved').length, 1);
  });

  it('when the record is older than the window, then a new reservation takes it over', async () => {
    const repo = await fresh();
    const hookId = newId();
    await repo.reserve({ hookId, key: 'k', owner: 'old', createAt: 100 }, 0);
    await repo.complete(hookId, 'k', 'old', response);
    assert.deepEqual(await repo.reserve({ hookId, key: 'k', owner: 'new', createAt: 1_000 }, 500), { kind: 'reserved', since: 1_000 });
    const record = await repo.find(hookId, 'k');
    assert.equal(record?.owner, 'new');
    assert.equal(record?.response, undefined);
  });

  it('when released or completed by someone else, then nothing changes; released by the owner, the next request takes the key with the first try\'s time', async () => {
    const repo = await fresh();
    const hookId = newId();
    await repo.reserve({ hookId, key: 'k', owner: 'me', createAt: 100 }, 0);
    await repo.complete(hookId, 'k', 'intruder', response);
    await repo.release(hookId, 'k', 'intruder');
    assert.equal((await repo.find(hookId, 'k'))?.owner, 'me');
    assert.equal((await repo.find(hookId, 'k'))?.response, undefined);
    await repo.release(hookId, 'k', 'me');
    assert.equal((await repo.find(hookId, 'k'))?.owner, RELEASED_OWNER);
    assert.deepEqual(await repo.reserve({ hookId, key: 'k', owner: 'next', createAt: 150 }, 0), { kind: 'reserved', since: 100 });
    const taken = await repo.reserve({ hookId, key: 'k', owner: 'third', createAt: 160 }, 0);
    assert.equal(taken.kind === 'existing' ? taken.record.owner : '', 'next');
    // Released again and then past the window: a new request, a new time.
    await repo.release(hookId, 'k', 'next');
    assert.deepEqual(await repo.reserve({ hookId, key: 'k', owner: 'later', createAt: 10_000 }, 5_000), { kind: 'reserved', since: 10_000 });
  });

  it('when a released key is taken by concurrent retries, then exactly one wins', async () => {
    const repo = await fresh();
    const hookId = newId();
    await repo.reserve({ hookId, key: 'r', owner: 'first', createAt: 100 }, 0);
    await repo.release(hookId, 'r', 'first');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.reserve({ hookId, key: 'r', owner: `o${i}`, createAt: 200 + i }, 0)));
    assert.deepEqual(results.filter((r) => r.kind === 'reserved'), [{ kind: 'reserved', since: 100 }]);
  });

  it('when keys differ by hook or by key, then they are independent; purge drops old records only', async () => {
    const repo = await fresh();
    const [h1, h2] = [newId(), newId()];
    await repo.reserve({ hookId: h1, key: 'a:b', owner: 'x', createAt: 10 }, 0);
    assert.deepEqual(await repo.reserve({ hookId: h2, key: 'a:b', owner: 'y', createAt: 20 }, 0), { kind: 'reserved', since: 20 });
    assert.deepEqual(await repo.reserve({ hookId: h1, key: 'a', owner: 'z', createAt: 30 }, 0), { kind: 'reserved', since: 30 });
    assert.equal(await repo.purge(25), 2);
    assert.equal(await repo.find(h1, 'a:b'), undefined);
    assert.equal((await repo.find(h1, 'a'))?.owner, 'z');
  });
}
