import type { Migration, SqliteStore } from '@switchyard/sqlite-kit';
import type { OpenDialogMatch, OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';
import type { OpenDialogRepository } from '../../domain/ports';

/** Its own schema component, so that its migrations never interleave with the hooks' and deliveries'. */
export const OPEN_DIALOGS_COMPONENT = 'outgoing-dispatch-dialogs';

export const OPEN_DIALOGS_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE od_open_dialogs (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    url TEXT NOT NULL,
    callback_id TEXT NOT NULL,
    state TEXT NOT NULL,
    notify_on_cancel INTEGER NOT NULL,
    create_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  -- findOpen and the per-user cap
  CREATE INDEX od_open_dialogs_user ON od_open_dialogs (user_id, create_at DESC, id DESC);
  CREATE INDEX od_open_dialogs_expiry ON od_open_dialogs (expires_at);
  `,
  // 2: the URLs a refresh (dialog.source_url) and a lookup (dynamic selects' data_source_url) may call.
  `
  ALTER TABLE od_open_dialogs ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
  ALTER TABLE od_open_dialogs ADD COLUMN lookup_urls TEXT NOT NULL DEFAULT '[]';
  `,
];

interface Row {
  id: string;
  user_id: string;
  url: string;
  callback_id: string;
  state: string;
  notify_on_cancel: number;
  source_url: string;
  lookup_urls: string;
  create_at: number;
  expires_at: number;
}

const fromRow = (r: Row): OpenDialogRecord => ({
  id: r.id,
  userId: r.user_id,
  url: r.url,
  callbackId: r.callback_id,
  state: r.state,
  notifyOnCancel: r.notify_on_cancel === 1,
  sourceUrl: r.source_url,
  lookupUrls: JSON.parse(r.lookup_urls) as string[],
  createAt: r.create_at,
  expiresAt: r.expires_at,
});

/** Open dialogs in the embedded store (a dialog left open survives a restart). */
export class SqliteOpenDialogRepository implements OpenDialogRepository {
  private readonly upsert;
  private readonly dropExpired;
  private readonly keepNewest;
  private readonly find;
  private readonly findAnyUrl;
  private readonly deleteById;

  public constructor(private readonly store: SqliteStore) {
    store.migrate(OPEN_DIALOGS_COMPONENT, OPEN_DIALOGS_MIGRATIONS);
    const db = store.db;
    this.upsert = db.prepare(
      'INSERT OR REPLACE INTO od_open_dialogs (id, user_id, url, callback_id, state, notify_on_cancel, source_url, lookup_urls, create_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.dropExpired = db.prepare('DELETE FROM od_open_dialogs WHERE expires_at <= ?');
    this.keepNewest = db.prepare(
      'DELETE FROM od_open_dialogs WHERE user_id = ? AND id NOT IN (SELECT id FROM od_open_dialogs WHERE user_id = ? ORDER BY create_at DESC, id DESC LIMIT ?)',
    );
    this.find = db.prepare<[string, string, string, string, number], Row>(
      'SELECT * FROM od_open_dialogs WHERE user_id = ? AND url = ? AND callback_id = ? AND state = ? AND expires_at > ? ORDER BY create_at DESC, id DESC LIMIT 1',
    );
    this.findAnyUrl = db.prepare<[string, string, string, number], Row>(
      'SELECT * FROM od_open_dialogs WHERE user_id = ? AND callback_id = ? AND state = ? AND expires_at > ? ORDER BY create_at DESC, id DESC LIMIT 1',
    );
    this.deleteById = db.prepare('DELETE FROM od_open_dialogs WHERE id = ?');
  }

  public async insert(d: OpenDialogRecord, keepPerUser: number): Promise<void> {
    await this.store.write(() => {
      this.dropExpired.run(d.createAt);
      this.upsert.run(d.id, d.userId, d.url, d.callbackId, d.state, d.notifyOnCancel ? 1 : 0, d.sourceUrl, JSON.stringify(d.lookupUrls), d.createAt, d.expiresAt);
      this.keepNewest.run(d.userId, d.userId, keepPerUser);
    });
  }

  public async findOpen(match: OpenDialogMatch, now: number): Promise<OpenDialogRecord | undefined> {
    const row =
      match.url === undefined ? this.findAnyUrl.get(match.userId, match.callbackId, match.state, now) : this.find.get(match.userId, match.url, match.callbackId, match.state, now);
    return row ? fromRow(row) : undefined;
  }

  public async remove(id: string): Promise<boolean> {
    return this.store.write(() => this.deleteById.run(id).changes === 1);
  }
}
