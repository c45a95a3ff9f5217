import { ACCESS_TOKENS_COLLECTION } from './access-token.schema.mongo';
import { BOTS_COLLECTION } from './bot.schema.mongo';
import { IMAGES_COLLECTION } from './image.schema.mongo';
import { SYSTEM_CONFIG_COLLECTION } from './config.schema.mongo';
import { SESSIONS_COLLECTION } from './session.schema.mongo';
import { TEAM_MEMBERS_COLLECTION } from './team-member.schema.mongo';
import { TEAMS_COLLECTION } from './team.schema.mongo';
import { USERS_COLLECTION } from './user.schema.mongo';
import { PREFERENCES_COLLECTION } from './preference.schema.mongo';

/** The collection behind each repository of the service's database. */
export const USERS_BOTS_COLLECTIONS = {
  images: IMAGES_COLLECTION,
  preferences: PREFERENCES_COLLECTION,
  users: USERS_COLLECTION,
  sessions: SESSIONS_COLLECTION,
  tokens: ACCESS_TOKENS_COLLECTION,
  bots: BOTS_COLLECTION,
  teams: TEAMS_COLLECTION,
  members: TEAM_MEMBERS_COLLECTION,
  configStore: SYSTEM_CONFIG_COLLECTION,
} as const;
