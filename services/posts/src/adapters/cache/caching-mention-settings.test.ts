import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserMentionSettings } from '@switchyard/contracts';
import { CachingMentionSettings } from './caching-mention-settings';

const keyed: UserMentionSettings = { mention_keys: ['deploy'], first_name: '', channel: true };

describe('CachingMentionSettings', () => {
  it('when users were asked for within the TTL, then they are not asked for again, defaults included; only the others are, in one call', async () => {
    const calls: string[][] = [];
    let now = 0;
    const cache = new CachingMentionSettings({ of: async (ids) => (calls.push([...ids]), new Map(ids.filter((id) => id === 'kim').map((id) => [id, keyed]))) }, 1_000, () => now);
    assert.deepEqual([...(await cache.of(['kim', 'bob']))], [['kim', keyed]]);
    assert.deepEqual([...(await cache.of(['bob', 'kim', 'ann']))], [['kim', keyed]]);
    assert.deepEqual(calls, [['kim', 'bob'], ['ann']]);
    assert.deepEqual([...(await cache.of(['kim', 'bob', 'ann']))], [['kim', keyed]]);
    assert.equal(calls.length, 2);
    now = 1_000;
    await cache.of(['kim']);
    assert.deepEqual(calls.at(-1), ['kim'], 'expired: asked again');
    await cache.of(['kim']);
    assert.equal(calls.length, 3, 'fresh again');
    cache.evict('kim');
    await cache.of(['kim']);
    assert.deepEqual(calls.at(-1), ['kim'], 'evicted: asked again');
    assert.equal(calls.length, 4);
  });

  it('when the lookup fails, then the failure reaches the caller and nothing is cached', async () => {
    let fail = true;
    const cache = new CachingMentionSettings({ of: async (ids) => { if (fail) throw new Error('down'); return new Map(ids.map((id) => [id, keyed])); } });
    await assert.rejects(cache.of(['kim']), /down/);
    fail = false;
    assert.deepEqual([...(await cache.of(['kim']))], [['kim', keyed]]);
  });
});
