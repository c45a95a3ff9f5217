import type { Migration } from '@switchyard/sqlite-kit';

/** incoming-hooks' tables in the embedded store. */
export const INCOMING_HOOKS_COMPONENT = 'incoming-hooks';

export const INCOMING_HOOKS_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE ih_hooks (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX ih_hooks_live ON ih_hooks (delete_at, create_at, id);
  CREATE INDEX ih_hooks_team ON ih_hooks (team_id, delete_at, create_at, id);

  CREATE TABLE ih_idempotency (
    hook_id TEXT NOT NULL,
    key TEXT NOT NULL,
    owner TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (hook_id, key)
  ) STRICT;
  CREATE INDEX ih_idempotency_create ON ih_idempotency (create_at);
  `,
];
