import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { PostsRepositories } from '../../domain/ports';
import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract, threadMembershipRepositoryContract, emojiRepositoryContract } from '../contracts';
import { aPost } from '../contracts/fixtures';
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

  test('when another write changes a post between an edit\'s read and its write, then the stored search terms follow the post as it ends up', async () => {
    if (!connection || !repositories) throw new Error('MongoDB not connected (see the before hook)');
    const posts = repositories.posts;
    const post = aPost({ message: 'alpha words' });
    await posts.insert(post);
    // The edit's read returns the post as it was; a delete lands right after that read, before the edit's write.
    const collection = connection.collection(POSTS_COLLECTIONS.posts) as unknown as { findOne: (...args: unknown[]) => Promise<unknown> };
    const original = collection.findOne;
    collection.findOne = async (...args: unknown[]) => {
      collection.findOne = original;
      const read = await original.apply(collection, args);
      await connection?.collection(POSTS_COLLECTIONS.posts).updateOne({ _id: post.id } as never, { $set: { delete_at: 5 } });
      return read;
    };
    try {
      const edited = await posts.update(post.id, { message: 'bravo words', edit_at: 7, update_at: 7 });
      assert.equal(edited?.message, 'bravo words');
      assert.equal(edited?.delete_at, 5);
    } finally {
      collection.findOne = original;
    }
    const stored = (await connection.collection(POSTS_COLLECTIONS.posts).findOne({ _id: post.id } as never)) as { search_terms?: string[] } | null;
    assert.deepEqual(stored?.search_terms, [], 'a deleted post has no search terms');
  });

  test('when files are attached or discarded, or a live emoji is read or deleted, then each filter has a unique index of exactly its fields (emulators scan the whole collection otherwise)', async () => {
    if (!connection) throw new Error('MongoDB not connected (see the before hook)');
    const uniqueIn = async (collection: string, key: Record<string, number>) => {
      const indexes = (await connection?.collection(collection).indexes()) as { key: Record<string, unknown>; unique?: boolean }[];
      return indexes.find((index) => JSON.stringify(index.key) === JSON.stringify(key))?.unique;
    };
    assert.equal(await uniqueIn(POSTS_COLLECTIONS.files, { _id: 1, post_id: 1, delete_at: 1, user_id: 1, channel_id: 1 }), true, 'attach');
    assert.equal(await uniqueIn(POSTS_COLLECTIONS.files, { _id: 1, post_id: 1, delete_at: 1, user_id: 1 }), true, 'discardUnattached');
    assert.equal(await uniqueIn(POSTS_COLLECTIONS.emoji, { _id: 1, delete_at: 1 }), true, 'emoji findById and softDelete');
  });
});
