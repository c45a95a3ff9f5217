import type { Migration } from '@switchyard/sqlite-kit';

/** users-bots' tables in the embedded store: each entity as a JSON `doc`, plus the columns its queries use. */
export const USERS_BOTS_COMPONENT = 'users-bots';

export const USERS_BOTS_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE ub_users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    email TEXT NOT NULL,
    is_bot INTEGER NOT NULL,
    roles TEXT NOT NULL,          -- JSON array of role names (role searches)
    create_at INTEGER NOT NULL,
    update_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    last_activity_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX ub_users_username ON ub_users (username);
  CREATE UNIQUE INDEX ub_users_email ON ub_users (email);
  CREATE INDEX ub_users_create_at ON ub_users (create_at DESC, username);
  CREATE INDEX ub_users_update_at ON ub_users (update_at);

  CREATE TABLE ub_sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    user_id TEXT NOT NULL,
    token_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX ub_sessions_token_hash ON ub_sessions (token_hash);
  CREATE INDEX ub_sessions_user ON ub_sessions (user_id, create_at);
  CREATE INDEX ub_sessions_token_id ON ub_sessions (token_id);

  CREATE TABLE ub_tokens (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    user_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX ub_tokens_token_hash ON ub_tokens (token_hash);
  CREATE INDEX ub_tokens_user ON ub_tokens (user_id, create_at, id);
  CREATE INDEX ub_tokens_create ON ub_tokens (create_at, id);

  CREATE TABLE ub_bots (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX ub_bots_owner ON ub_bots (owner_id, create_at, id);
  CREATE INDEX ub_bots_create ON ub_bots (create_at, id);

  CREATE TABLE ub_teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX ub_teams_name ON ub_teams (name);

  CREATE TABLE ub_team_members (
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (team_id, user_id)
  ) STRICT;
  CREATE INDEX ub_team_members_team ON ub_team_members (team_id, delete_at, create_at, user_id);
  CREATE INDEX ub_team_members_user ON ub_team_members (user_id, delete_at, create_at);

  CREATE TABLE ub_config (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    doc TEXT NOT NULL
  ) STRICT;
  `,
  // 2: pictures (profile images, bot icons), the bytes as a BLOB.
  `
  CREATE TABLE ub_images (
    key TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    update_at INTEGER NOT NULL
  ) STRICT;
  `,
];
