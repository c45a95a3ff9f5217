/**
 * The contract suites every repository adapter runs (memory and mongoose): pass a factory that returns
 * a fresh, empty repository (or one on a fresh collection).
 */
export { channelRepositoryContract } from './channel-repository.contract';
export { channelMemberRepositoryContract } from './channel-member-repository.contract';
export { postRepositoryContract } from './post-repository.contract';
export { reactionRepositoryContract } from './reaction-repository.contract';
export { fileInfoRepositoryContract, aFileInfo } from './file-info-repository.contract';
export { threadMembershipRepositoryContract, aThreadKey } from './thread-membership-repository.contract';
export { aChannel, aChannelMember, aPost, aReaction, anEvent, rejectsDuplicate, type Factory } from './fixtures';
export { emojiRepositoryContract, anEmoji } from './emoji-repository.contract';
