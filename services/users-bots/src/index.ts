export { createApp, createApp as createUsersBotsApp, SERVICE_NAME, type UsersBotsApp, type UsersBotsDeps } from './app';
export { loadUsersBotsConfig, usersBotsEnvSchema, type UsersBotsConfig } from './config';
export { memoryRepositories } from './adapters/memory';
export { createSqliteRepositories as createUsersBotsSqliteRepositories } from './adapters/sqlite';
export { ScryptPasswordHasher, type ScryptParams } from './adapters/crypto/scrypt-password-hasher';
export { DuplicateKeyError, isDuplicateKeyError } from './domain/errors';
export type {
  Repositories,
  UserRepository,
  SessionRepository,
  AccessTokenRepository,
  BotRepository,
  TeamRepository,
  TeamMemberRepository,
  ConfigRepository,
  Clock,
  PasswordHasher,
} from './domain/ports';
export type { User, Bot, Session, AccessToken, Team, TeamMember } from './domain/entities';
