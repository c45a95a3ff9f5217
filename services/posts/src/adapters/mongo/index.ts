export { createPostsMongoRepositories, POSTS_COLLECTIONS, type PostsMongoOptions } from './create-mongo-repositories';
export { MongoChannelRepository } from './channel.repository.mongo';
export { MongoChannelMemberRepository } from './channel-member.repository.mongo';
export { MongoPostRepository } from './post.repository.mongo';
export { MongoReactionRepository } from './reaction.repository.mongo';
export { MongoFileInfoRepository } from './file-info.repository.mongo';
export { MongoThreadMembershipRepository } from './thread-membership.repository.mongo';
