import type { Migration } from '@switchyard/sqlite-kit';

/** outgoing-dispatch's tables in the embedded store: hooks, deliveries (the delivery log and the retry queue), slash commands and their response_urls. */
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
  // Slash commands (ADR 0008) and their response_urls (only the id's SHA-256 is kept).
  `
  CREATE TABLE od_commands (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    creator_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX od_commands_team ON od_commands (team_id, delete_at, create_at, id);

  CREATE TABLE od_command_webhooks (
    id_hash TEXT PRIMARY KEY,
    create_at INTEGER NOT NULL,
    use_count INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX od_command_webhooks_age ON od_command_webhooks (create_at);
  `,
  // Ordered deliveries wait for an earlier one of their (hook, channel, URL) still pending or failed (ADR 0013 addendum).
  `
  CREATE INDEX od_deliveries_waiting ON od_deliveries (hook_id, create_at, id) WHERE status IN ('pending', 'failed');
  `,
  // Only ordered deliveries are waited for (Delivery.ordered): the others (hooks that hear only `posted`, most of
  // them) stay out of od_deliveries_waiting, two WAL page writes less per delivery (its insert and its finish).
  // Rows stored before count as ordered, as they did.
  `
  ALTER TABLE od_deliveries ADD COLUMN ordered INTEGER NOT NULL DEFAULT 1;
  DROP INDEX od_deliveries_waiting;
  CREATE INDEX od_deliveries_waiting ON od_deliveries (hook_id, create_at, id) WHERE status IN ('pending', 'failed') AND ordered = 1;
  `,
];
