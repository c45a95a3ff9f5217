export { createPostsApp, SERVICE_NAME, type PostsApp, type PostsDeps } from './app';
export { loadPostsConfig, postsEnvSchema, type PostsConfig } from './config';
export { memoryRepositories } from './adapters/memory';
export { createSqliteRepositories as createPostsSqliteRepositories } from './adapters/sqlite';
export { ThreadPostSearch } from './adapters/sqlite/post-search.thread';
export { DuplicateKeyError, isDuplicateKeyError } from './domain/errors';
export type { PostsRepositories, ChannelRepository, ChannelMemberRepository, PostRepository, ReactionRepository, Clock, UsersDirectory, EventSink } from './domain/ports';
export type { Channel, ChannelMember, StoredPost, Reaction, PendingEvent } from './domain/entities';
export { createPostsMongoRepositories, POSTS_COLLECTIONS, type PostsMongoOptions } from './adapters/mongo';
