import type { SqliteStore } from '@switchyard/sqlite-kit';

/** Every ASCII letter and digit (and the tag characters) as a separator: the benches' ASCII text then holds no word. */
const NO_ASCII_WORDS = `unicode61 separators '${'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#-_.'}'`;

/**
 * Takes the post search index out of a migrated embedded store (= the store before it, as near as the schema
 * allows), for the search-index-cost benches: every per-write search trigger left (edits and deletes of posts'
 * migrations 4 and 8, the scope version of 7) is dropped. Since posts' migration 12 a new post's search rows
 * are written by the post repository itself, so the two FTS5 tables are made again with a tokenizer that finds
 * no word in ASCII text (an insert then indexes nothing; searches still prepare), and the match metadata keeps its
 * row and indexes per post (search's statements name those indexes): the figure without is a little high.
 */
export function dropSearchIndex(db: SqliteStore['db']): void {
  const triggers = ['p_posts_search_update', 'p_posts_search_delete', 'p_posts_search_meta_update', 'p_posts_search_meta_delete'];
  const scope = ['p_search_scope_member_insert', 'p_search_scope_member_delete', 'p_search_scope_member_update', 'p_search_scope_channel_update', 'p_search_scope_channel_delete'];
  for (const name of [...triggers, ...scope]) db.exec(`DROP TRIGGER ${name}`);
  db.exec(`
    DROP TABLE p_posts_fts;
    CREATE VIRTUAL TABLE p_posts_fts USING fts5(message, content='', contentless_delete=1, tokenize="${NO_ASCII_WORDS}");
    DROP TABLE p_posts_tags_fts;
    CREATE VIRTUAL TABLE p_posts_tags_fts USING fts5(tags, content='', contentless_delete=1, tokenize="${NO_ASCII_WORDS}");
  `);
}
