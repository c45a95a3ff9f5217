import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FoundPost, PostSearchQuery } from './post-search.port';
import { searchPosts, type SearchDeps } from './search-posts.usecase';

/** The use case's deps for a team search: bob is a member of the team, carol is not, anyone else is unknown. */
function depsWithIndexSpy(): { deps: SearchDeps; asked: PostSearchQuery[] } {
  const asked: PostSearchQuery[] = [];
  const ids = new Map([
    ['bob', 'bob-id'],
    ['carol', 'carol-id'],
  ]);
  const deps = {
    clock: { now: () => 1_800_000_000_000 },
    liveConfig: { current: () => ({ TeamSettings: {} }) },
    scope: { readableChannelIds: async () => Object.freeze(['channel-1']) },
    userNames: { idsByUsernames: async (names: readonly string[]) => new Map(names.flatMap((n) => (ids.has(n) ? [[n, ids.get(n) as string] as const] : []))) },
    users: {
      teamRoles: async () => 'team_user',
      teamMembersAmong: async (_team: string | undefined, userIds: readonly string[]) => new Set(userIds.filter((id) => id === 'bob-id')),
    },
    search: {
      search: async (query: PostSearchQuery): Promise<FoundPost[]> => {
        asked.push(query);
        return [];
      },
    },
  };
  return { deps: deps as unknown as SearchDeps, asked };
}

const actor = { userId: 'alice-id', roles: 'system_user', isBot: false };
const command = (terms: string) => ({ teamId: 'team-1', terms, isOrSearch: false, timeZoneOffset: 0, includeDeletedChannels: false, page: 0 });

describe('searchPosts: from: authors', () => {
  it('when every from: author is unknown or outside the team, then the answer is empty and the index is not read', async () => {
    const { deps, asked } = depsWithIndexSpy();
    for (const terms of ['from:nobody deploy', 'from:carol deploy', 'from:nobody from:carol deploy', 'from:carol']) {
      assert.deepEqual(await searchPosts(deps, actor, command(terms)), { posts: [], matches: {} }, terms);
    }
    assert.equal(asked.length, 0);
  });

  it('when some from: authors are members, then the index is asked for those authors only', async () => {
    const { deps, asked } = depsWithIndexSpy();
    await searchPosts(deps, actor, command('from:nobody from:bob from:carol deploy'));
    assert.deepEqual(
      asked.map((q) => q.userIds),
      [['bob-id']],
    );
  });
});
