import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ThreadMembership, ThreadMembershipKey, ThreadMembershipRepository } from '../../domain/threads/thread-ports';
import type { Factory } from './fixtures';

export function aThreadKey(overrides: Partial<ThreadMembershipKey> = {}): ThreadMembershipKey {
  return { post_id: newId(), user_id: newId(), channel_id: newId(), team_id: newId(), ...overrides };
}

const byPost = (a: ThreadMembership, b: ThreadMembership): number => (a.post_id < b.post_id ? -1 : a.post_id > b.post_id ? 1 : 0);
const byUser = (a: ThreadMembership, b: ThreadMembership): number => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0);

export function threadMembershipRepositoryContract(name: string, make: Factory<ThreadMembershipRepository>): void {
  describe(`ThreadMembershipRepository contract: ${name}`, () => {
    it('when a membership is maintained the first time, then it is created with the defaults and what the change sets', async () => {
      const repo = await make();
      const key = aThreadKey();
      assert.equal(await repo.find(key.post_id, key.user_id), undefined);
      const created = await repo.maintain(key, { following: true, add_mentions: 1, last_updated: 50 });
      const expected: ThreadMembership = { ...key, following: true, last_viewed: 0, last_updated: 50, unread_mentions: 1 };
      assert.deepEqual(created, expected);
      assert.deepEqual(await repo.find(key.post_id, key.user_id), expected);

      const bare = aThreadKey();
      assert.deepEqual(await repo.maintain(bare, { last_updated: 7 }), { ...bare, following: false, last_viewed: 0, last_updated: 7, unread_mentions: 0 });
    });

    it('when an existing membership is maintained, then only the changed fields move and its thread stays where it was', async () => {
      const repo = await make();
      const key = aThreadKey();
      await repo.maintain(key, { following: true, last_viewed: 10, last_updated: 10 });
      await repo.maintain(key, { add_mentions: 1, last_updated: 20 });
      const moved = await repo.maintain({ ...key, channel_id: newId(), team_id: newId() }, { add_mentions: 2, last_updated: 30 });
      assert.deepEqual(moved, { ...key, following: true, last_viewed: 10, last_updated: 30, unread_mentions: 3 });
      const read = await repo.maintain(key, { following: false, last_viewed: 40, unread_mentions: 0, add_mentions: 5, last_updated: 40 });
      assert.deepEqual(read, { ...key, following: false, last_viewed: 40, last_updated: 40, unread_mentions: 0 });
      assert.deepEqual(await repo.find(key.post_id, key.user_id), read);
    });

    it('when mentions are added concurrently, then every one of them counts', async () => {
      const repo = await make();
      const key = aThreadKey();
      await Promise.all(Array.from({ length: 8 }, (_, i) => repo.maintain(key, { following: true, add_mentions: 1, last_updated: i })));
      assert.equal((await repo.find(key.post_id, key.user_id))?.unread_mentions, 8);
    });

    it('when a user follows threads in several teams, then listFollowing answers the followed ones of the asked teams only', async () => {
      const repo = await make();
      const user = newId();
      const team = newId();
      const inTeam = await repo.maintain(aThreadKey({ user_id: user, team_id: team }), { following: true, last_updated: 1 });
      const direct = await repo.maintain(aThreadKey({ user_id: user, team_id: '' }), { following: true, last_updated: 1 });
      await repo.maintain(aThreadKey({ user_id: user, team_id: team }), { following: false, last_updated: 1 });
      await repo.maintain(aThreadKey({ user_id: user }), { following: true, last_updated: 1 });
      await repo.maintain(aThreadKey({ team_id: team }), { following: true, last_updated: 1 });
      assert.deepEqual((await repo.listFollowing(user, [team, ''])).sort(byPost), [inTeam, direct].sort(byPost));
      assert.deepEqual(await repo.listFollowing(user, [team]), [inTeam]);
      assert.deepEqual(await repo.listFollowing(newId(), [team, '']), []);
    });

    it('when several users are members of a thread, then listFollowers answers those following it', async () => {
      const repo = await make();
      const postId = newId();
      const a = await repo.maintain(aThreadKey({ post_id: postId }), { following: true, last_updated: 1 });
      const b = await repo.maintain(aThreadKey({ post_id: postId }), { following: true, last_updated: 2 });
      await repo.maintain(aThreadKey({ post_id: postId }), { following: false, last_updated: 3 });
      await repo.maintain(aThreadKey(), { following: true, last_updated: 4 });
      assert.deepEqual((await repo.listFollowers(postId)).sort(byUser), [a, b].sort(byUser));
      assert.deepEqual(await repo.listFollowers(newId()), []);
    });

    it('when all threads of a team are marked read, then every membership of the user there (followed or not) is read and others are untouched', async () => {
      const repo = await make();
      const user = newId();
      const team = newId();
      const followed = await repo.maintain(aThreadKey({ user_id: user, team_id: team }), { following: true, add_mentions: 2, last_updated: 1 });
      const unfollowed = await repo.maintain(aThreadKey({ user_id: user, team_id: '' }), { following: false, add_mentions: 1, last_updated: 1 });
      const elsewhere = await repo.maintain(aThreadKey({ user_id: user }), { following: true, add_mentions: 3, last_updated: 1 });
      const someoneElse = await repo.maintain(aThreadKey({ team_id: team }), { following: true, add_mentions: 4, last_updated: 1 });
      assert.equal(await repo.markAllRead(user, [team, ''], 99), 2);
      assert.deepEqual(await repo.find(followed.post_id, user), { ...followed, last_viewed: 99, last_updated: 99, unread_mentions: 0 });
      assert.deepEqual(await repo.find(unfollowed.post_id, user), { ...unfollowed, last_viewed: 99, last_updated: 99, unread_mentions: 0 });
      assert.deepEqual(await repo.find(elsewhere.post_id, user), elsewhere);
      assert.deepEqual(await repo.find(someoneElse.post_id, someoneElse.user_id), someoneElse);
      assert.equal(await repo.markAllRead(newId(), [team], 5), 0);
    });
  });
}
