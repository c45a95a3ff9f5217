/**
 * The contract suites every repository adapter runs (memory now, mongoose later): pass a factory that
 * returns a fresh, empty repository (or one in a fresh collection).
 */
export { userRepositoryContract } from './user-repository.contract';
export { sessionRepositoryContract } from './session-repository.contract';
export { accessTokenRepositoryContract } from './access-token-repository.contract';
export { botRepositoryContract } from './bot-repository.contract';
export { teamRepositoryContract } from './team-repository.contract';
export { teamMemberRepositoryContract } from './team-member-repository.contract';
export { configRepositoryContract } from './config-repository.contract';
export { imageStoreContract } from './image-store.contract';
export { aUser, aSession, aToken, aBot, aTeam, aMember, rejectsDuplicate, type Factory } from './fixtures';
export { preferenceRepositoryContract } from './preference-repository.contract';
