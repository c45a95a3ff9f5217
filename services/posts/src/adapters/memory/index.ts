import type { PostsRepositories } from '../../domain/ports';
import { MemoryChannelMemberRepository } from './channel-member.repository.memory';
import { MemoryChannelRepository } from './channel.repository.memory';
import { MemoryPostRepository } from './post.repository.memory';
import { ScanningPostSearch } from './post-search.memory';
import { MemoryReactionRepository } from './reaction.repository.memory';
import { MemoryFileInfoRepository } from './file-info.repository.memory';
import { MemoryThreadMembershipRepository } from './thread-membership.repository.memory';
import { MemoryEmojiRepository } from './emoji.repository.memory';

export { MemoryEmojiRepository, MemoryThreadMembershipRepository, MemoryFileInfoRepository, MemoryChannelMemberRepository, MemoryChannelRepository, MemoryPostRepository, MemoryReactionRepository, ScanningPostSearch };

/** A fresh, empty set of in-process repositories (embedded runtime and unit tests). */
export function memoryRepositories(): PostsRepositories {
  const posts = new MemoryPostRepository();
  return {
    channels: new MemoryChannelRepository(),
    channelMembers: new MemoryChannelMemberRepository(),
    posts,
    reactions: new MemoryReactionRepository(),
    files: new MemoryFileInfoRepository(),
    search: new ScanningPostSearch(posts),
    threads: new MemoryThreadMembershipRepository(),
    emoji: new MemoryEmojiRepository(),
  };
}
