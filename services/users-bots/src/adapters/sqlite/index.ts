import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import { SqliteAccessTokenRepository } from './access-token.repository.sqlite';
import { SqliteBotRepository } from './bot.repository.sqlite';
import { SqliteConfigRepository } from './config.repository.sqlite';
import { SqliteImageStore } from './image-store.sqlite';
import { USERS_BOTS_COMPONENT, USERS_BOTS_MIGRATIONS } from './schema.sqlite';
import { SqliteSessionRepository } from './session.repository.sqlite';
import { SqliteTeamMemberRepository } from './team-member.repository.sqlite';
import { SqliteTeamRepository } from './team.repository.sqlite';
import { SqliteUserRepository } from './user.repository.sqlite';
import { SqlitePreferenceRepository } from './preference.repository.sqlite';

export {
  SqliteAccessTokenRepository,
  SqliteBotRepository,
  SqliteConfigRepository,
  SqliteImageStore,
  SqliteSessionRepository,
  SqliteTeamMemberRepository,
  SqliteTeamRepository,
  SqliteUserRepository,
  USERS_BOTS_COMPONENT,
  USERS_BOTS_MIGRATIONS,
};

/** users-bots' repositories on the embedded SQLite store (its tables created or migrated first). */
export function createSqliteRepositories(store: SqliteStore): Repositories {
  store.migrate(USERS_BOTS_COMPONENT, USERS_BOTS_MIGRATIONS);
  return {
    images: new SqliteImageStore(store),
    preferences: new SqlitePreferenceRepository(store),
    users: new SqliteUserRepository(store),
    sessions: new SqliteSessionRepository(store),
    tokens: new SqliteAccessTokenRepository(store),
    bots: new SqliteBotRepository(store),
    teams: new SqliteTeamRepository(store),
    members: new SqliteTeamMemberRepository(store),
    configStore: new SqliteConfigRepository(store),
  };
}
