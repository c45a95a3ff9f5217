import { jsonList, type SqliteStatement, type SqliteStore } from '@switchyard/sqlite-kit';
import type { PendingEvent, StoredPost } from '../../domain/entities';
import type { PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import type { SearchWord } from '../../domain/search/search-query';

interface Row {
  readonly doc: string;
  readonly events: string;
}

/**
 * Post search on the FTS5 tables of migration 4 (schema.sqlite.ts), which triggers keep in the post
 * write's own transaction. Every user-given word reaches FTS5 only inside a double-quoted string whose
 * quotes are doubled, so FTS5 syntax (NEAR, ^, *, column filters, parentheses) in a query is plain text.
 */
export class SqlitePostSearch implements PostSearchIndex {
  private readonly statements = new Map<string, SqliteStatement<unknown[], Row>>();

  public constructor(private readonly store: SqliteStore) {}

  public async search(query: PostSearchQuery): Promise<StoredPost[]> {
    if (query.channelIds.length === 0 || !(query.limit > 0)) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    const text = [...query.words.map(wordExpr), ...query.phrases.map(phraseExpr)];
    const tags = query.hashtags.map(quote);
    // With a text match, rows are found through FTS5 first (`+` keeps the planner off the channel index).
    let channel = 'p.channel_id';
    if (text.length > 0) {
      where.push('p.rowid IN (SELECT rowid FROM p_posts_fts WHERE p_posts_fts MATCH ?)');
      params.push(text.join(query.orSearch ? ' OR ' : ' AND '));
      channel = '+p.channel_id';
    }
    if (tags.length > 0) {
      where.push('p.rowid IN (SELECT rowid FROM p_posts_tags_fts WHERE p_posts_tags_fts MATCH ?)');
      params.push(tags.join(query.orSearch ? ' OR ' : ' AND '));
      channel = '+p.channel_id';
    }
    if (text.length === 0 && tags.length === 0) where.push("json_extract(p.doc, '$.type') NOT LIKE 'system\\_%' ESCAPE '\\'");
    where.push(`${channel} IN (SELECT value FROM json_each(?))`, 'p.delete_at = 0');
    params.push(jsonList(query.channelIds));
    const excludedText = [...query.excludedWords.map(wordExpr), ...query.excludedPhrases.map(phraseExpr)];
    if (excludedText.length > 0) {
      where.push('p.rowid NOT IN (SELECT rowid FROM p_posts_fts WHERE p_posts_fts MATCH ?)');
      params.push(excludedText.join(' OR '));
    }
    if (query.excludedHashtags.length > 0) {
      where.push('p.rowid NOT IN (SELECT rowid FROM p_posts_tags_fts WHERE p_posts_tags_fts MATCH ?)');
      params.push(query.excludedHashtags.map(quote).join(' OR '));
    }
    if (query.userIds !== undefined) {
      where.push('p.user_id IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.userIds));
    }
    if (query.excludedUserIds.length > 0) {
      where.push('p.user_id NOT IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.excludedUserIds));
    }
    if (query.time.from !== undefined) {
      where.push('p.create_at >= ?');
      params.push(query.time.from);
    }
    if (query.time.to !== undefined) {
      where.push('p.create_at <= ?');
      params.push(query.time.to);
    }
    for (const day of query.time.excluded) {
      where.push('p.create_at NOT BETWEEN ? AND ?');
      params.push(day.from, day.to);
    }
    const sql = `SELECT p.doc, p.events FROM p_posts p WHERE ${where.join(' AND ')} ORDER BY p.create_at DESC, p.id DESC LIMIT ?`;
    return this.statement(sql).all(...params, query.limit).map(toPost);
  }

  private statement(sql: string): SqliteStatement<unknown[], Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.store.db.prepare<unknown[], Row>(sql);
      if (this.statements.size < 256) this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** An FTS5 string: any text, quotes doubled. */
function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

function wordExpr(word: SearchWord): string {
  return word.prefix ? `${quote(word.text)}*` : quote(word.text);
}

function phraseExpr(words: readonly string[]): string {
  return quote(words.join(' '));
}

function toPost(row: Row): StoredPost {
  const post = JSON.parse(row.doc) as StoredPost;
  post.pending_events = row.events === '[]' ? [] : (JSON.parse(row.events) as PendingEvent[]);
  return post;
}
