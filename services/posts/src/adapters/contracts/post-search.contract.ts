import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { StoredPost } from '../../domain/entities';
import type { PostRepository } from '../../domain/ports';
import type { PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import { parseSearch } from '../../domain/search/search-query';
import { hashtagsOf } from '../../domain/rules/post-rules';
import { aPost, type Factory } from './fixtures';

/** A search index and the post repository of the same store (writes through `posts` must show in `search`). */
export interface SearchStore {
  readonly posts: PostRepository;
  readonly search: PostSearchIndex;
}

function post(channelId: string, message: string, overrides: Partial<StoredPost> = {}): StoredPost {
  return aPost({ channel_id: channelId, message, hashtags: hashtagsOf(message), ...overrides });
}

/** The query for `terms` as the use case builds it (no from/in resolution: the contract is about the index). */
export function queryOf(terms: string, channelIds: readonly string[], extra: Partial<PostSearchQuery> = {}): PostSearchQuery {
  const parsed = parseSearch(terms);
  return {
    channelIds,
    words: parsed.words,
    phrases: parsed.phrases,
    hashtags: parsed.hashtags,
    excludedWords: parsed.excludedWords,
    excludedPhrases: parsed.excludedPhrases,
    excludedHashtags: parsed.excludedHashtags,
    orSearch: false,
    excludedUserIds: [],
    time: { excluded: [] },
    limit: 100,
    highlight: { words: parsed.words, phrases: parsed.phrases, hashtags: parsed.hashtags },
    ...extra,
  };
}

/** The found posts without their matches (what most checks compare). */
interface PostsFound {
  search(query: PostSearchQuery): Promise<StoredPost[]>;
}

export function postSearchContract(name: string, makeStore: Factory<SearchStore>): void {
  const make = async (): Promise<{ posts: PostRepository; search: PostsFound; index: PostSearchIndex }> => {
    const { posts, search: index } = await makeStore();
    return { posts, index, search: { search: async (query) => (await index.search(query)).map((found) => found.post) } };
  };
  describe(`PostSearchIndex contract: ${name}`, () => {
    it('when posts are found, then each comes with the words of the highlight terms it holds, as written, and its matching tags', async () => {
      const { posts, index } = await make();
      const ch = newId();
      const a = post(ch, 'Running the DEPLOY; deploy again #Ops', { create_at: 1 });
      const b = post(ch, 'deploying pipelines #other', { create_at: 2 });
      await posts.insertMany([a, b]);
      const all = parseSearch('deploy pipe* #ops');
      const found = await index.search(queryOf('deploy pipe*', [ch], { orSearch: true, highlight: { words: all.words, phrases: all.phrases, hashtags: all.hashtags } }));
      assert.deepEqual(
        found.map((f) => [f.post.id, f.matches]),
        [
          [b.id, ['deploying', 'pipelines']],
          [a.id, ['DEPLOY', 'deploy', '#Ops']],
        ],
      );
      // A run of the tags alone still names the words of the whole query (the use case merges two runs).
      const tagRun = await index.search(queryOf('#ops', [ch], { highlight: { words: [{ text: 'run', prefix: false }], phrases: [], hashtags: ['#ops'] } }));
      assert.deepEqual(tagRun.map((f) => [f.post.id, f.matches]), [[a.id, ['Running', '#Ops']]]);
    });

    it('when words are searched, then posts with all of them (stemmed, any case, diacritics folded) are found newest first, only in the given channels', async () => {
      const { posts, search } = await make();
      const [c1, c2] = [newId(), newId()];
      const a = post(c1, 'The Deploy is RUNNING on café servers', { create_at: 100 });
      const b = post(c1, 'deployed the runner', { create_at: 200 });
      const c = post(c1, 'deploy runs again', { create_at: 300 });
      const other = post(c2, 'deploy running elsewhere', { create_at: 400 });
      await posts.insertMany([a, b, c, other]);
      const ids = async (terms: string, extra: Partial<PostSearchQuery> = {}): Promise<string[]> => (await search.search(queryOf(terms, [c1], extra))).map((p) => p.id);
      assert.deepEqual(await ids('deploy run'), [c.id, a.id]);
      assert.deepEqual(await ids('CAFE'), [a.id]);
      assert.deepEqual(await ids('deploy run', { orSearch: true }), [c.id, b.id, a.id]);
      assert.deepEqual(await ids('runn*'), [b.id]);
      assert.deepEqual(await ids('deploy -servers'), [c.id, b.id]);
      assert.deepEqual(await ids('"deploy runs"'), [c.id]);
      assert.deepEqual(await ids('deploy -"runs again"'), [b.id, a.id]);
      assert.deepEqual(await ids('deploy run -servers', { orSearch: true }), [c.id, b.id]);
      assert.deepEqual(await ids('deploy -servers -runner'), [c.id]);
      assert.deepEqual(await ids('"deploy runs" -cafe'), [c.id]);
      assert.deepEqual(await ids('deploy -deploy'), []);
      assert.deepEqual(await ids('nothinglikethis'), []);
      assert.deepEqual((await search.search(queryOf('deploy', [c1, c2]))).map((p) => p.id), [other.id, c.id, b.id, a.id]);
    });

    it('when a prefix is searched, then words starting with it match', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const a = post(ch, 'kubernetes cluster', { create_at: 1 });
      const b = post(ch, 'kubectl apply', { create_at: 2 });
      const c = post(ch, 'docker', { create_at: 3 });
      await posts.insertMany([a, b, c]);
      assert.deepEqual((await search.search(queryOf('kube*', [ch]))).map((p) => p.id), [b.id, a.id]);
    });

    it('when a prefix ends as the stemmer shortens a word, then it still finds that word and longer ones (as FTS5 and the reference stem a prefix)', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const a = post(ch, 'pipeabce build green', { create_at: 1 });
      const b = post(ch, 'pipeabceline broken', { create_at: 2 });
      const c = post(ch, 'running late', { create_at: 3 });
      await posts.insertMany([a, b, c]);
      assert.deepEqual((await search.search(queryOf('pipeabce*', [ch]))).map((p) => p.id), [b.id, a.id]);
      assert.deepEqual((await search.search(queryOf('pipeabce* -pipeabcel*', [ch]))).map((p) => p.id), [a.id]);
      assert.deepEqual((await search.search(queryOf('runni*', [ch]))).map((p) => p.id), [], 'running is indexed as run');
      assert.deepEqual((await search.search(queryOf('runn*', [ch]))).map((p) => p.id), []);
      assert.deepEqual((await search.search(queryOf('run*', [ch]))).map((p) => p.id), [c.id]);
    });

    it('when hashtags are searched, then only posts with exactly that tag match, any case', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const a = post(ch, 'release #Build-42 done', { create_at: 1 });
      const b = post(ch, 'release #build done', { create_at: 2 });
      const c = post(ch, 'the word build alone', { create_at: 3 });
      await posts.insertMany([a, b, c]);
      assert.deepEqual((await search.search(queryOf('#build', [ch]))).map((p) => p.id), [b.id]);
      assert.deepEqual((await search.search(queryOf('#BUILD-42', [ch]))).map((p) => p.id), [a.id]);
    });

    it('when filters are given without words, then authors, dates and excluded days narrow the channels\' posts; system posts never match', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const [alice, bob] = [newId(), newId()];
      const a = post(ch, 'one', { user_id: alice, create_at: 1_000 });
      const b = post(ch, 'two', { user_id: bob, create_at: 2_000 });
      const c = post(ch, 'three', { user_id: alice, create_at: 3_000 });
      const sys = post(ch, 'joined the channel', { user_id: alice, create_at: 4_000, type: 'system_join_channel' });
      await posts.insertMany([a, b, c, sys]);
      const ids = async (extra: Partial<PostSearchQuery>): Promise<string[]> => (await search.search(queryOf('', [ch], extra))).map((p) => p.id);
      assert.deepEqual(await ids({ userIds: [alice] }), [c.id, a.id]);
      assert.deepEqual(await ids({ excludedUserIds: [alice] }), [b.id]);
      assert.deepEqual(await ids({ time: { from: 1_500, to: 3_000, excluded: [] } }), [c.id, b.id]);
      assert.deepEqual(await ids({ time: { excluded: [{ from: 1_500, to: 2_500 }] } }), [c.id, a.id]);
      assert.deepEqual(await ids({ limit: 1 }), [c.id]);
      assert.deepEqual((await search.search(queryOf('joined', [ch]))).map((p) => p.id), []);
    });

    it('when a rare author or a far date is searched with a common word, then every match is found, however many posts of others hold the word', async () => {
      const { posts, search } = await make();
      const [ch, other] = [newId(), newId()];
      const [alice, bob, carol] = [newId(), newId(), newId()];
      // More matches of `common` by others than SQLite's plan reads before it reads the few authors' posts first.
      const many = Array.from({ length: 800 }, (_, i) => post(ch, `common word ${i}`, { user_id: bob, create_at: 10_000 + i }));
      const rare = post(ch, 'common alice here', { user_id: alice, create_at: 5_000 });
      const elsewhere = post(other, 'common alice elsewhere', { user_id: alice, create_at: 5_001 });
      const unrelated = post(ch, 'nothing shared', { user_id: alice, create_at: 5_002 });
      await posts.insertMany([many[0]!, rare, elsewhere, unrelated, ...many.slice(1)]);
      const ids = async (terms: string, extra: Partial<PostSearchQuery>): Promise<string[]> => (await search.search(queryOf(terms, [ch], extra))).map((p) => p.id);
      assert.deepEqual(await ids('common', { userIds: [alice] }), [rare.id]);
      assert.deepEqual(await ids('common', { userIds: [alice, carol] }), [rare.id]);
      assert.deepEqual(await ids('common', { userIds: [carol] }), []);
      assert.deepEqual(await ids('common alice', { userIds: [alice], orSearch: true }), [rare.id]);
      assert.deepEqual(await ids('"common alice"', { userIds: [alice] }), [rare.id]);
      assert.deepEqual(await ids('comm*', { userIds: [alice] }), [rare.id]);
      assert.deepEqual(await ids('common -alice', { userIds: [alice] }), []);
      assert.deepEqual(await ids('common', { userIds: [alice], time: { to: 4_999, excluded: [] } }), []);
      assert.deepEqual(await ids('common', { userIds: [alice], time: { from: 5_000, to: 5_000, excluded: [] } }), [rare.id]);
      assert.deepEqual(await ids('common', { userIds: [alice], excludedUserIds: [alice] }), []);
      assert.deepEqual(await ids('common', { time: { to: 10_001, excluded: [] } }), [many[1]!.id, many[0]!.id, rare.id]);
      assert.deepEqual(await ids('common', { time: { from: 10_798, excluded: [] } }), [many[799]!.id, many[798]!.id]);
      // Stored after many[0] but older: time order is not storage order.
      assert.deepEqual(await ids('common', { time: { to: 9_999, excluded: [] } }), [rare.id]);
      assert.deepEqual(await ids('common', { time: { from: 5_000, to: 10_000, excluded: [] } }), [many[0]!.id, rare.id]);
      assert.deepEqual(await ids('common', { time: { from: 20_000, excluded: [] } }), []);
      assert.equal((await ids('common', { userIds: [alice, bob] })).length, 100);
      // A rare tag without words, excluding the common word.
      const tagCh = newId();
      const [shipCommon, shipFine] = [post(tagCh, '#ship common', { create_at: 1 }), post(tagCh, '#ship fine', { create_at: 2 })];
      await posts.insertMany([shipCommon, shipFine]);
      const tagged = async (terms: string): Promise<string[]> => (await search.search(queryOf(terms, [tagCh]))).map((p) => p.id);
      assert.deepEqual(await tagged('#ship -common'), [shipFine.id]);
      assert.deepEqual(await tagged('#ship -fine'), [shipCommon.id]);
      assert.deepEqual(await tagged('#ship -comm*'), [shipFine.id]);
      // A rare author of a common tag.
      const busy = Array.from({ length: 300 }, (_, i) => post(tagCh, `#busy ${i}`, { user_id: bob, create_at: 100 + i }));
      const alicesBusy = post(tagCh, '#busy alice', { user_id: alice, create_at: 50 });
      const alicesWord = post(tagCh, 'busy as a word, not a tag', { user_id: alice, create_at: 51 });
      await posts.insertMany([busy[0]!, alicesBusy, alicesWord, ...busy.slice(1)]);
      const byAuthors = async (terms: string, userIds: string[]): Promise<string[]> => (await search.search(queryOf(terms, [tagCh], { userIds }))).map((p) => p.id);
      assert.deepEqual(await byAuthors('#busy', [alice]), [alicesBusy.id]);
      assert.deepEqual(await byAuthors('#busy', [alice, carol]), [alicesBusy.id]);
      assert.deepEqual(await byAuthors('#busy', [carol]), []);
      assert.deepEqual(await byAuthors('#busy -alice', [alice]), []);
      assert.deepEqual(await byAuthors('#busy -#ship', [alice]), [alicesBusy.id]);
      assert.deepEqual(await byAuthors('#busy', [bob, alice]), [...busy.slice(-100).reverse().map((p) => p.id)]);
    });

    it('when a post is edited or deleted, then the index follows at once', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const a = post(ch, 'alpha original', { create_at: 1 });
      await posts.insert(a);
      await posts.update(a.id, { message: 'beta replaced #newtag', hashtags: '#newtag', edit_at: 5 });
      const ids = async (terms: string): Promise<string[]> => (await search.search(queryOf(terms, [ch]))).map((p) => p.id);
      assert.deepEqual(await ids('alpha'), []);
      assert.deepEqual(await ids('beta'), [a.id]);
      assert.deepEqual(await ids('#newtag'), [a.id]);
      await posts.update(a.id, { delete_at: 9, update_at: 9 });
      assert.deepEqual(await ids('beta'), []);
      assert.deepEqual(await ids('#newtag'), []);
      const b = post(ch, 'gamma', { create_at: 2 });
      await posts.insert(b);
      assert.equal(await posts.deletePermanently(b.id), true);
      assert.deepEqual(await ids('gamma'), []);
    });

    it('when the query holds FTS or MongoDB operator text, then it is searched as plain words and never fails', async () => {
      const { posts, search } = await make();
      const ch = newId();
      const a = post(ch, 'near the regex end', { create_at: 1 });
      await posts.insert(a);
      for (const terms of ['NEAR(a b)', '^start', '$where', '{$regex: ".*"}', 'a OR b', 'message:x', '"unbalanced', '*', 'x" OR "1"="1', ')(', `${'x'.repeat(10_000)}`]) {
        const found = await search.search(queryOf(terms, [ch]));
        assert.ok(Array.isArray(found), terms);
      }
      assert.deepEqual((await search.search(queryOf('{$regex: ".*"}', [ch]))).map((p) => p.id), [a.id]);
      assert.deepEqual((await search.search(queryOf('NEAR', [ch]))).map((p) => p.id), [a.id]);
    });
  });
}
