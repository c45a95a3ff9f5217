import type { Repositories } from '../../domain/ports';
import { MemoryAccessTokenRepository } from './access-token.repository.memory';
import { MemoryBotRepository } from './bot.repository.memory';
import { MemoryConfigRepository } from './config.repository.memory';
import { MemoryImageStore } from './image-store.memory';
import { MemorySessionRepository } from './session.repository.memory';
import { MemoryTeamMemberRepository } from './team-member.repository.memory';
import { MemoryTeamRepository } from './team.repository.memory';
import { MemoryUserRepository } from './user.repository.memory';
import { MemoryPreferenceRepository } from './preference.repository.memory';

export {
  MemoryAccessTokenRepository,
  MemoryBotRepository,
  MemoryConfigRepository,
  MemoryImageStore,
  MemorySessionRepository,
  MemoryTeamMemberRepository,
  MemoryTeamRepository,
  MemoryUserRepository,
  MemoryPreferenceRepository,
};

/** A fresh, empty set of in-process repositories (embedded runtime and unit tests). */
export function memoryRepositories(): Repositories {
  return {
    images: new MemoryImageStore(),
    preferences: new MemoryPreferenceRepository(),
    users: new MemoryUserRepository(),
    sessions: new MemorySessionRepository(),
    tokens: new MemoryAccessTokenRepository(),
    bots: new MemoryBotRepository(),
    teams: new MemoryTeamRepository(),
    members: new MemoryTeamMemberRepository(),
    configStore: new MemoryConfigRepository(),
  };
}
