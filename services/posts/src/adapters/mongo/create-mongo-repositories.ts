import type { Logger } from '@switchyard/logger';
import type { Connection } from '@switchyard/mongo-kit';
import type { PostsRepositories } from '../../domain/ports';
import { MongoChannelMemberRepository } from './channel-member.repository.mongo';
import { channelMemberModel, CHANNEL_MEMBERS_COLLECTION } from './channel-member.schema.mongo';
import { MongoChannelRepository } from './channel.repository.mongo';
import { channelModel, CHANNELS_COLLECTION } from './channel.schema.mongo';
import { MongoPostSearch } from './post-search.mongo';
import { MongoPostRepository } from './post.repository.mongo';
import { postModel, POSTS_COLLECTION } from './post.schema.mongo';
import { MongoReactionRepository } from './reaction.repository.mongo';
import { reactionModel, REACTIONS_COLLECTION } from './reaction.schema.mongo';
import { MongoFileInfoRepository } from './file-info.repository.mongo';
import { fileInfoModel, FILE_INFOS_COLLECTION } from './file-info.schema.mongo';
import { MongoThreadMembershipRepository } from './thread-membership.repository.mongo';
import { threadMembershipModel, THREAD_MEMBERSHIPS_COLLECTION } from './thread-membership.schema.mongo';
import { MongoEmojiRepository } from './emoji.repository.mongo';
import { emojiModel, EMOJI_COLLECTION } from './emoji.schema.mongo';

/** The collection behind each repository of the service's database. */
export const POSTS_COLLECTIONS = {
  channels: CHANNELS_COLLECTION,
  channelMembers: CHANNEL_MEMBERS_COLLECTION,
  posts: POSTS_COLLECTION,
  reactions: REACTIONS_COLLECTION,
  files: FILE_INFOS_COLLECTION,
  threads: THREAD_MEMBERSHIPS_COLLECTION,
  emoji: EMOJI_COLLECTION,
} as const;

export interface PostsMongoOptions {
  /** `create` (default): create missing indexes (idempotent); `sync`: also drop undeclared ones; `none`: leave them. */
  readonly indexes?: 'create' | 'sync' | 'none';
  /** `maxTimeMS` of each post search query (default SEARCH_MAX_TIME_MS, 5 s). */
  readonly searchMaxTimeMs?: number;
  /** Where a search stopped at its time bound is reported. */
  readonly logger?: Pick<Logger, 'warn'>;
}

/**
 * posts' repositories on a mongoose connection (opened with `connectMongo`, owned and closed by the
 * composition root). Resolves once the indexes, unique ones included, exist.
 */
export async function createPostsMongoRepositories(connection: Connection, options: PostsMongoOptions = {}): Promise<PostsRepositories> {
  const models = {
    channels: channelModel(connection),
    channelMembers: channelMemberModel(connection),
    posts: postModel(connection),
    reactions: reactionModel(connection),
    files: fileInfoModel(connection),
    threads: threadMembershipModel(connection),
    emoji: emojiModel(connection),
  };
  const mode = options.indexes ?? 'create';
  if (mode !== 'none') {
    for (const model of Object.values(models) as { createIndexes(): Promise<unknown>; syncIndexes(): Promise<unknown> }[]) {
      if (mode === 'sync') await model.syncIndexes();
      else await model.createIndexes();
    }
  }
  return {
    channels: new MongoChannelRepository(models.channels),
    channelMembers: new MongoChannelMemberRepository(models.channelMembers),
    posts: new MongoPostRepository(models.posts),
    reactions: new MongoReactionRepository(models.reactions),
    files: new MongoFileInfoRepository(models.files),
    search: new MongoPostSearch(models.posts, {
      ...(options.searchMaxTimeMs !== undefined ? { maxTimeMs: options.searchMaxTimeMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    threads: new MongoThreadMembershipRepository(models.threads),
    emoji: new MongoEmojiRepository(models.emoji),
  };
}
