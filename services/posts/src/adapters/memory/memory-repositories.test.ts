import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract } from '../contracts';
import { MemoryFileInfoRepository, MemoryChannelMemberRepository, MemoryChannelRepository, MemoryPostRepository, MemoryReactionRepository } from './index';

channelRepositoryContract('memory', () => new MemoryChannelRepository());
channelMemberRepositoryContract('memory', () => new MemoryChannelMemberRepository());
postRepositoryContract('memory', () => new MemoryPostRepository());
reactionRepositoryContract('memory', () => new MemoryReactionRepository());
fileInfoRepositoryContract('memory', () => new MemoryFileInfoRepository());
