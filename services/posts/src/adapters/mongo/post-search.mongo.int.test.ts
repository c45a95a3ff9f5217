import { after, before, describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { PostsRepositories } from '../../domain/ports';
import { postSearchContract } from '../contracts/post-search.contract';
import { searchScopeContract } from '../contracts/search-scope.contract';
import { repositorySearchScope } from '../../domain/search/search-scope.port';
import { createPostsMongoRepositories, POSTS_COLLECTIONS } from './index';

const url = process.env.MONGO_URL;

describe('post search on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  const dbName = `posts_search_it_${randomBytes(6).toString('hex')}`;
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

  postSearchContract('mongo', async () => {
    if (!connection || !repositories) throw new Error('MongoDB not connected (see the before hook)');
    await connection.collection(POSTS_COLLECTIONS.posts).deleteMany({});
    return { posts: repositories.posts, search: repositories.search };
  });

  searchScopeContract('mongo repositories', () => {
    if (!repositories) throw new Error('MongoDB not connected (see the before hook)');
    return { channels: repositories.channels, channelMembers: repositories.channelMembers, scope: repositorySearchScope(repositories.channels, repositories.channelMembers) };
  });
});
