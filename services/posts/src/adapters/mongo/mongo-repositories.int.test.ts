import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { PostsRepositories } from '../../domain/ports';
import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract, threadMembershipRepositoryContract, emojiRepositoryContract } from '../contracts';
import { createPostsMongoRepositories, POSTS_COLLECTIONS } from './index';

const url = process.env.MONGO_URL;

describe('posts repositories on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  // One fresh database per run, dropped at the end; each contract test starts from an empty collection.
  const dbName = `posts_it_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;
  let repositories: PostsRepositories | undefined;

  before(async () => {
    connection = await connectMongo({ url: url ?? '', dbName, serverSelectionTimeoutMs: 5_000 });
    repositories = await createPostsMongoRepositories(connection);
  });

  after(async () => {
    if (!connection) return;
    await connection.dropDatabase();
    await connection.close();
  });

  const fresh =
    <K extends keyof typeof POSTS_COLLECTIONS>(key: K) =>
    async (): Promise<PostsRepositories[K]> => {
      if (!connection || !repositories) throw new Error('MongoDB not connected (see the before hook)');
      await connection.collection(POSTS_COLLECTIONS[key]).deleteMany({});
      return repositories[key];
    };

  channelRepositoryContract('mongo', fresh('channels'));
  channelMemberRepositoryContract('mongo', fresh('channelMembers'));
  postRepositoryContract('mongo', fresh('posts'), {
    keptParticipantsDropped: async (_repo, rootId) => {
      await connection?.collection(POSTS_COLLECTIONS.posts).updateOne({ _id: rootId } as never, { $unset: { participant_ids: '' } });
    },
  });
  reactionRepositoryContract('mongo', fresh('reactions'));
  fileInfoRepositoryContract('mongo', fresh('files'));
  threadMembershipRepositoryContract('mongo', fresh('threads'));
  emojiRepositoryContract('mongo', fresh('emoji'));

  test('when files are attached or discarded, then each conditional claim has a unique index of exactly its filter\'s fields (emulators scan the whole collection otherwise)', async () => {
    if (!connection) throw new Error('MongoDB not connected (see the before hook)');
    const indexes = (await connection.collection(POSTS_COLLECTIONS.files).indexes()) as { key: Record<string, unknown>; unique?: boolean }[];
    const unique = (key: Record<string, number>) => indexes.find((index) => JSON.stringify(index.key) === JSON.stringify(key))?.unique;
    assert.equal(unique({ _id: 1, post_id: 1, delete_at: 1, user_id: 1, channel_id: 1 }), true, 'attach');
    assert.equal(unique({ _id: 1, post_id: 1, delete_at: 1, user_id: 1 }), true, 'discardUnattached');
  });
});
