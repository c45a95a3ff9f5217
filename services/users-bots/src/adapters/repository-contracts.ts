/**
 * The contract suites every repository adapter runs (memory now, mongoose later): pass a factory that
 * returns a fresh, empty repository (or one in a fresh collection).
 */
export { userRepositoryContract } from './contracts/user-repository.contract';
export { sessionRepositoryContract } from './contracts/session-repository.contract';
export { accessTokenRepositoryContract } from './contracts/access-token-repository.contract';
export { botRepositoryContract } from './contracts/bot-repository.contract';
export { teamRepositoryContract } from './contracts/team-repository.contract';
export { teamMemberRepositoryContract } from './contracts/team-member-repository.contract';
export { configRepositoryContract } from './contracts/config-repository.contract';
export { imageStoreContract } from './contracts/image-store.contract';
export { aUser, aSession, aToken, aBot, aTeam, aMember, rejectsDuplicate, type Factory } from './contracts/fixtures';
