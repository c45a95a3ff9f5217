import { fromDocs, type DocRow, type Migration, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Emoji } from '../../domain/emoji/emoji';
import type { EmojiRepository } from '../../domain/emoji/emoji-ports';
import { mapDuplicates } from './sqlite-support';

/**
 * Custom emoji metadata in the embedded store: its own migration component (kept apart from the posts
 * tables' numbering). A live name is unique as the reference's (Name, DeleteAt) key: deleted emoji keep
 * their delete time, so a name can be taken again after a delete.
 */
export const EMOJI_COMPONENT = 'posts_emoji';

export const EMOJI_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE p_emoji (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX p_emoji_name ON p_emoji (name, delete_at);
  CREATE INDEX p_emoji_created ON p_emoji (create_at, id) WHERE delete_at = 0;
  `,
];

const UNIQUE_KEYS = { id: 'id', 'name,delete_at': 'name' };

export class SqliteEmojiRepository implements EmojiRepository {
  private readonly insertRow;
  private readonly byId;
  private readonly byName;
  private readonly listByName;
  private readonly listByCreation;
  private readonly prefix;
  private readonly contains;
  private readonly deleteRow;

  public constructor(private readonly store: SqliteStore) {
    store.migrate(EMOJI_COMPONENT, EMOJI_MIGRATIONS);
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO p_emoji (id, name, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?)');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM p_emoji WHERE id = ? AND delete_at = 0');
    this.byName = db.prepare<[string], DocRow>('SELECT doc FROM p_emoji WHERE name = ? AND delete_at = 0');
    this.listByName = db.prepare<[number, number], DocRow>('SELECT doc FROM p_emoji WHERE delete_at = 0 ORDER BY name, id LIMIT ? OFFSET ?');
    this.listByCreation = db.prepare<[number, number], DocRow>('SELECT doc FROM p_emoji WHERE delete_at = 0 ORDER BY create_at, id LIMIT ? OFFSET ?');
    // Case-sensitive and free of LIKE wildcards: the term is compared as it is.
    this.prefix = db.prepare<[string, string, number], DocRow>('SELECT doc FROM p_emoji WHERE delete_at = 0 AND substr(name, 1, length(?)) = ? ORDER BY name, id LIMIT ?');
    this.contains = db.prepare<[string, number], DocRow>('SELECT doc FROM p_emoji WHERE delete_at = 0 AND instr(name, ?) > 0 ORDER BY name, id LIMIT ?');
    this.deleteRow = db.prepare("UPDATE p_emoji SET delete_at = ?, doc = json_set(doc, '$.delete_at', ?, '$.update_at', ?) WHERE id = ? AND delete_at = 0");
  }

  public async insert(emoji: Emoji): Promise<void> {
    const doc = JSON.stringify(emoji);
    await this.store.writeOne(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(emoji.id, emoji.name, emoji.create_at, emoji.delete_at, doc)));
  }

  public async findById(id: string): Promise<Emoji | undefined> {
    return fromDocs<Emoji>(this.byId.all(id))[0];
  }

  public async findByName(name: string): Promise<Emoji | undefined> {
    return fromDocs<Emoji>(this.byName.all(name))[0];
  }

  public async findByNames(names: readonly string[]): Promise<Emoji[]> {
    const out: Emoji[] = [];
    for (const name of new Set(names)) {
      const found = fromDocs<Emoji>(this.byName.all(name))[0];
      if (found) out.push(found);
    }
    return out;
  }

  public async list(offset: number, limit: number, sortByName: boolean): Promise<Emoji[]> {
    if (!(limit > 0) || offset < 0) return [];
    return fromDocs<Emoji>((sortByName ? this.listByName : this.listByCreation).all(limit, offset));
  }

  public async search(term: string, prefixOnly: boolean, limit: number): Promise<Emoji[]> {
    if (!(limit > 0)) return [];
    return fromDocs<Emoji>(prefixOnly ? this.prefix.all(term, term, limit) : this.contains.all(term, limit));
  }

  public async softDelete(id: string, at: number): Promise<boolean> {
    return this.store.writeOne(() => this.deleteRow.run(at, at, at, id).changes === 1);
  }
}
