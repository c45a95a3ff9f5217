import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SelfAnswerCache } from './self-answer-cache';

const answer = (text: string) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(text) });

test('an answer lives ttlMs, and one fetched across an eviction of anyone is not kept', () => {
  let now = 1_000;
  const cache = new SelfAnswerCache({ ttlMs: 100, maxEntries: 10, now: () => now });
  cache.set('s1', 'u1', answer('a'), cache.mark());
  assert.equal(cache.get('s1')?.body.toString(), 'a');
  now += 100;
  assert.equal(cache.get('s1'), undefined);
  const mark = cache.mark();
  cache.evictUser('u2');
  cache.set('s1', 'u1', answer('stale'), mark);
  assert.equal(cache.get('s1'), undefined);
});

test('evicting a user drops every session of that user only; the bound on entries holds', () => {
  const cache = new SelfAnswerCache({ ttlMs: 1_000, maxEntries: 3 });
  cache.set('s1', 'u1', answer('1'), cache.mark());
  cache.set('s2', 'u1', answer('2'), cache.mark());
  cache.set('s3', 'u2', answer('3'), cache.mark());
  cache.evictUser('u1');
  assert.equal(cache.get('s1'), undefined);
  assert.equal(cache.get('s2'), undefined);
  assert.equal(cache.get('s3')?.body.toString(), '3');
  cache.set('s4', 'u3', answer('4'), cache.mark());
  cache.set('s5', 'u4', answer('5'), cache.mark());
  cache.set('s6', 'u5', answer('6'), cache.mark());
  assert.ok([...['s3', 's4', 's5', 's6']].filter((s) => cache.get(s) !== undefined).length <= 3);
  assert.equal(cache.get('s6')?.body.toString(), '6');
});
