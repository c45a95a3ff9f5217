import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract } from '../contracts';
import { MemoryChannelMemberRepository, MemoryChannelRepository, MemoryPostRepository, MemoryReactionRepository } from './index';

channelRepositoryContract('memory', () => new MemoryChannelRepository());
channelMemberRepositoryContract('memory', () => new MemoryChannelMemberRepository());
postRepositoryContract('memory', () => new MemoryPostRepository());
reactionRepositoryContract('memory', () => new MemoryReactionRepository());
