import {
  accessTokenRepositoryContract,
  botRepositoryContract,
  configRepositoryContract,
  imageStoreContract,
  preferenceRepositoryContract,
  sessionRepositoryContract,
  teamMemberRepositoryContract,
  teamRepositoryContract,
  userRepositoryContract,
} from '../contracts';
import {
  MemoryAccessTokenRepository,
  MemoryBotRepository,
  MemoryConfigRepository,
  MemoryImageStore,
  MemoryPreferenceRepository,
  MemorySessionRepository,
  MemoryTeamMemberRepository,
  MemoryTeamRepository,
  MemoryUserRepository,
} from './index';

userRepositoryContract('memory', () => new MemoryUserRepository());
sessionRepositoryContract('memory', () => new MemorySessionRepository());
accessTokenRepositoryContract('memory', () => new MemoryAccessTokenRepository());
botRepositoryContract('memory', () => new MemoryBotRepository());
teamRepositoryContract('memory', () => new MemoryTeamRepository());
teamMemberRepositoryContract('memory', () => new MemoryTeamMemberRepository());
configRepositoryContract('memory', () => new MemoryConfigRepository());
imageStoreContract('memory', () => new MemoryImageStore());
preferenceRepositoryContract('memory', () => new MemoryPreferenceRepository());
