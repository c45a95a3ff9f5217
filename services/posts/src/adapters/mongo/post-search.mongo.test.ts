import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Model } from '@switchyard/mongo-kit';
import type { PostSearchQuery } from '../../domain/search/post-search.port';
import { isMaxTimeExpired, MongoPostSearch, SEARCH_MAX_TIME_MS } from './post-search.mongo';
import type { PostDocument } from './post.schema.mongo';

// mongo-java-server (the shared test server) accepts `maxTimeMS` but never stops a query at it (probed: a
// 30,000-document two-term search with maxTimeMS 1 answered after 61 ms), so the bound and its outcome are
// checked here on a cursor that records what it was given and fails as MongoDB does at the bound.

interface Recorded {
  maxTimeMs?: number;
  limit?: number;
}

function fakeModel(outcome: () => Promise<unknown[]>, recorded: Recorded): Model<PostDocument> {
  const cursor = {
    sort: () => cursor,
    limit: (n: number) => ((recorded.limit = n), cursor),
    maxTimeMS: (ms: number) => ((recorded.maxTimeMs = ms), cursor),
    toArray: outcome,
  };
  return { collection: { find: () => cursor } } as unknown as Model<PostDocument>;
}

const query: PostSearchQuery = {
  channelIds: ['c1'],
  words: [{ text: 'alpha', prefix: false }],
  phrases: [],
  hashtags: [],
  excludedWords: [],
  excludedPhrases: [],
  excludedHashtags: [],
  orSearch: false,
  userIds: ['u1'],
  excludedUserIds: [],
  time: { excluded: [] },
  limit: 100,
  highlight: { words: [{ text: 'alpha', prefix: false }], phrases: [], hashtags: [] },
};

/** What the Node driver throws when the server stops an operation at its maxTimeMS. */
const expired = (): Error => Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' });

describe('MongoPostSearch time bound', () => {
  it('gives every search query a maxTimeMS (the default, or the one configured)', async () => {
    const byDefault: Recorded = {};
    await new MongoPostSearch(fakeModel(async () => [], byDefault)).search(query);
    assert.equal(byDefault.maxTimeMs, SEARCH_MAX_TIME_MS);
    const configured: Recorded = {};
    await new MongoPostSearch(fakeModel(async () => [], configured), { maxTimeMs: 250 }).search(query);
    assert.equal(configured.maxTimeMs, 250);
    assert.equal(configured.limit, 100);
  });

  it('answers no posts when the server stops the query at its bound, and logs it', async () => {
    const warnings: { message: string; meta: unknown }[] = [];
    const logger = { warn: (message: string, meta?: unknown) => void warnings.push({ message, meta }) };
    const search = new MongoPostSearch(fakeModel(() => Promise.reject(expired()), {}), { maxTimeMs: 10, logger });
    assert.deepEqual(await search.search(query), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]?.message ?? '', /time bound/);
    assert.deepEqual(warnings[0]?.meta, { max_time_ms: 10, channels: 1, terms: 1, authors: 1 });
  });

  it('throws any other store error', async () => {
    const down = Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' });
    const search = new MongoPostSearch(fakeModel(() => Promise.reject(down), {}));
    await assert.rejects(search.search(query), /connection closed/);
  });

  it('recognises the bound by code or code name only', () => {
    assert.equal(isMaxTimeExpired(expired()), true);
    assert.equal(isMaxTimeExpired({ codeName: 'MaxTimeMSExpired' }), true);
    assert.equal(isMaxTimeExpired({ code: 11000 }), false);
    assert.equal(isMaxTimeExpired('MaxTimeMSExpired'), false);
    assert.equal(isMaxTimeExpired(null), false);
  });
});
