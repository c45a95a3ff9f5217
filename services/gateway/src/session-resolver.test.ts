import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedSession } from '@switchyard/contracts';
import { createSilentLogger } from '@switchyard/logger';
import { MemoryTokenCache } from './adapters/memory/token-cache.memory';
import { SessionResolver } from './domain/session-resolver';

const base: ResolvedSession = { userId: 'u1', sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: 'c', expiresAt: 0 };

function setup(answer: (token: string) => Promise<ResolvedSession | undefined>, now = () => Date.now()) {
  const calls: string[] = [];
  const cache = new MemoryTokenCache({ maxEntries: 10, now });
  const resolver = new SessionResolver({
    cache,
    source: { resolve: (token) => (calls.push(token), answer(token)) },
    logger: createSilentLogger(),
    ttlMs: 30_000,
    now,
  });
  return { calls, cache, resolver };
}

test('when a token is resolved twice, then the source is asked once', async () => {
  const { calls, resolver } = setup(async () => base);
  assert.equal((await resolver.resolve('t'))?.userId, 'u1');
  assert.equal((await resolver.resolve('t'))?.userId, 'u1');
  assert.equal(calls.length, 1);
});

test('when many requests carry the same new token at once, then they share one lookup', async () => {
  const { calls, resolver } = setup(async () => base);
  const results = await Promise.all(Array.from({ length: 5 }, () => resolver.resolve('t')));
  assert.ok(results.every((r) => r?.userId === 'u1'));
  assert.equal(calls.length, 1);
});

test('when a token is invalid, then the failure is not cached', async () => {
  let valid = false;
  const { calls, resolver } = setup(async () => (valid ? base : undefined));
  assert.equal(await resolver.resolve('t'), undefined);
  valid = true;
  assert.equal((await resolver.resolve('t'))?.userId, 'u1');
  assert.equal(calls.length, 2);
});

test('when a session expires, then the cached copy is not used past its expiry', async () => {
  let now = 1_000_000;
  const { calls, resolver } = setup(async () => ({ ...base, expiresAt: 1_000_500 }), () => now);
  await resolver.resolve('t');
  now = 1_000_400;
  await resolver.resolve('t');
  assert.equal(calls.length, 1);
  now = 1_000_600;
  assert.equal(await resolver.resolve('t'), undefined);
  assert.equal(calls.length, 2);
});

test('when an eviction happens while a lookup is on its way, then its answer is not cached', async () => {
  let release: (s: ResolvedSession) => void = () => undefined;
  const { calls, resolver } = setup(() => (calls.length === 1 ? new Promise((r) => (release = r)) : Promise.resolve(base)));
  const pending = resolver.resolve('slow');
  while (calls.length === 0) await new Promise((r) => setImmediate(r));
  await resolver.evictUser('u1');
  release(base);
  assert.equal((await pending)?.userId, 'u1');
  await resolver.resolve('slow');
  assert.equal(calls.length, 2);
});

test('when users-bots fails, then the error reaches the caller and nothing is cached', async () => {
  const { resolver } = setup(async () => {
    throw new Error('down');
  });
  await assert.rejects(resolver.resolve('t'), /down/);
});
