import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract, threadMembershipRepositoryContract, emojiRepositoryContract } from '../contracts';
import { MemoryThreadMembershipRepository, MemoryFileInfoRepository, MemoryChannelMemberRepository, MemoryChannelRepository, MemoryPostRepository, MemoryReactionRepository, MemoryEmojiRepository } from './index';

channelRepositoryContract('memory', () => new MemoryChannelRepository());
channelMemberRepositoryContract('memory', () => new MemoryChannelMemberRepository());
postRepositoryContract('memory', () => new MemoryPostRepository(), { keptParticipantsDropped: async (repo, rootId) => (repo as MemoryPostRepository).forgetKeptParticipants(rootId) });
reactionRepositoryContract('memory', () => new MemoryReactionRepository());
fileInfoRepositoryContract('memory', () => new MemoryFileInfoRepository());
threadMembershipRepositoryContract('memory', () => new MemoryThreadMembershipRepository());
emojiRepositoryContract('memory', () => new MemoryEmojiRepository());
