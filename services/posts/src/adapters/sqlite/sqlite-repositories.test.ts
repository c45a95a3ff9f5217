import { after } from 'node:test';
import { freshRepositories, type SqliteStore } from '@switchyard/sqlite-kit';
import type { PostRepository } from '../../domain/ports';
import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract, threadMembershipRepositoryContract, emojiRepositoryContract } from '../contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
// The store under each post repository: a root can be made to look stored before migration 9.
const storeOf = new WeakMap<PostRepository, SqliteStore>();
const { fresh, disposeAll } = freshRepositories('posts-sqlite-', (store) => {
  const repositories = createSqliteRepositories(store);
  storeOf.set(repositories.posts, store);
  return repositories;
});
after(disposeAll);

channelRepositoryContract('sqlite', fresh('channels'));
channelMemberRepositoryContract('sqlite', fresh('channelMembers'));
postRepositoryContract('sqlite', fresh('posts'), {
  keptParticipantsDropped: async (repo, rootId) => {
    storeOf.get(repo)?.db.prepare('UPDATE p_posts SET participant_ids = NULL WHERE id = ?').run(rootId);
  },
});
reactionRepositoryContract('sqlite', fresh('reactions'));
fileInfoRepositoryContract('sqlite', fresh('files'));
threadMembershipRepositoryContract('sqlite', fresh('threads'));
emojiRepositoryContract('sqlite', fresh('emoji'));
