import type { Migration } from '@switchyard/sqlite-kit';

/** outgoing-dispatch's tables in the embedded store: hooks, and deliveries (the delivery log and the retry queue). */
export const OUTGOING_DISPATCH_COMPONENT = 'outgoing-dispatch';

export const OUTGOING_DISPATCH_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE od_hooks (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    creator_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX od_hooks_team ON od_hooks (team_id, delete_at, create_at, id);
  CREATE INDEX od_hooks_live ON od_hooks (delete_at, create_at, id);

  CREATE TABLE od_deliveries (
    id TEXT PRIMARY KEY,
    hook_id TEXT NOT NULL,
    status TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    claimed_by TEXT NOT NULL,
    claim_until INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX od_deliveries_hook ON od_deliveries (hook_id, create_at DESC, id DESC);
  -- the retry queue: only deliveries that will be attempted again are in this index
  CREATE INDEX od_deliveries_due ON od_deliveries (next_attempt_at) WHERE status IN ('pending', 'failed');
  `,
];
