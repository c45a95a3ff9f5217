import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { PostsRepositories } from '../../domain/ports';
import { SqliteChannelMemberRepository } from './channel-member.repository.sqlite';
import { SqliteChannelRepository } from './channel.repository.sqlite';
import { SqlitePostRepository } from './post.repository.sqlite';
import { SqlitePostSearch } from './post-search.sqlite';
import { SqliteSearchScope } from './search-scope.sqlite';
import { SqliteReactionRepository } from './reaction.repository.sqlite';
import { SqliteFileInfoRepository } from './file-info.repository.sqlite';
import { SqliteThreadMembershipRepository } from './thread-membership.repository.sqlite';
import { POSTS_COMPONENT, POSTS_MIGRATIONS } from './schema.sqlite';
import { SqliteEmojiRepository } from './emoji.repository.sqlite';

export { SqliteThreadMembershipRepository, SqliteFileInfoRepository, SqliteChannelMemberRepository, SqliteChannelRepository, SqlitePostRepository, SqliteReactionRepository, POSTS_COMPONENT, POSTS_MIGRATIONS };

/** posts' repositories on the embedded SQLite store (its tables created or migrated first). */
export function createSqliteRepositories(store: SqliteStore): PostsRepositories {
  store.migrate(POSTS_COMPONENT, POSTS_MIGRATIONS);
  return {
    channels: new SqliteChannelRepository(store),
    channelMembers: new SqliteChannelMemberRepository(store),
    posts: new SqlitePostRepository(store),
    reactions: new SqliteReactionRepository(store),
    files: new SqliteFileInfoRepository(store),
    search: new SqlitePostSearch(store.db),
    threads: new SqliteThreadMembershipRepository(store),
    searchScope: new SqliteSearchScope(store),
    emoji: new SqliteEmojiRepository(store),
  };
}
