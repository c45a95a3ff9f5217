import type { Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import { MongoAccessTokenRepository } from './access-token.repository.mongo';
import { accessTokenModel } from './access-token.schema.mongo';
import { MongoBotRepository } from './bot.repository.mongo';
import { botModel } from './bot.schema.mongo';
import { MongoConfigRepository } from './config.repository.mongo';
import { MongoImageStore } from './image-store.mongo';
import { imageModel } from './image.schema.mongo';
import { configModel } from './config.schema.mongo';
import { MongoSessionRepository } from './session.repository.mongo';
import { sessionModel } from './session.schema.mongo';
import { MongoTeamMemberRepository } from './team-member.repository.mongo';
import { teamMemberModel } from './team-member.schema.mongo';
import { MongoTeamRepository } from './team.repository.mongo';
import { teamModel } from './team.schema.mongo';
import { MongoUserRepository } from './user.repository.mongo';
import { userModel } from './user.schema.mongo';
import { MongoPreferenceRepository } from './preference.repository.mongo';
import { preferenceModel } from './preference.schema.mongo';

export interface MongoRepositoriesOptions {
  /**
   * What to do with the schemas' indexes before the repositories are handed out:
   * - `create` (default): create the missing ones (createIndexes: idempotent, never drops anything, so
   *   an older and a newer version can run side by side during a rollout);
   * - `sync`: also drop the indexes no schema declares any more (mongoose syncIndexes; run it once
   *   from a migration step, not from every replica);
   * - `none`: leave them alone (someone else manages them).
   */
  readonly indexes?: 'create' | 'sync' | 'none';
}

/**
 * The service's repositories on a mongoose connection (opened with `connectMongo` from
 * `@switchyard/mongo-kit`, owned and closed by the composition root; `mongoHealthy(connection)` is
 * the readiness check), the same object `memoryRepositories()` returns. Resolves once the indexes,
 * unique ones included, exist, so no write can slip past a unique key that is still being built.
 */
export async function createMongoRepositories(connection: Connection, options: MongoRepositoriesOptions = {}): Promise<Repositories> {
  const models = {
    images: imageModel(connection),
    preferences: preferenceModel(connection),
    users: userModel(connection),
    sessions: sessionModel(connection),
    tokens: accessTokenModel(connection),
    bots: botModel(connection),
    teams: teamModel(connection),
    members: teamMemberModel(connection),
    configStore: configModel(connection),
  };
  await prepareIndexes(Object.values(models), options.indexes ?? 'create');
  return {
    images: new MongoImageStore(models.images),
    preferences: new MongoPreferenceRepository(models.preferences),
    users: new MongoUserRepository(models.users),
    sessions: new MongoSessionRepository(models.sessions),
    tokens: new MongoAccessTokenRepository(models.tokens),
    bots: new MongoBotRepository(models.bots),
    teams: new MongoTeamRepository(models.teams),
    members: new MongoTeamMemberRepository(models.members),
    configStore: new MongoConfigRepository(models.configStore),
  };
}

/** The part of a mongoose Model that manages its indexes. */
interface IndexedModel {
  createIndexes(): Promise<unknown>;
  syncIndexes(): Promise<unknown>;
}

async function prepareIndexes(models: readonly IndexedModel[], mode: 'create' | 'sync' | 'none'): Promise<void> {
  if (mode === 'none') return;
  // One collection after another: emulators (FerretDB on SQLite) serialise DDL anyway.
  for (const model of models) {
    if (mode === 'sync') await model.syncIndexes();
    else await model.createIndexes();
  }
}
