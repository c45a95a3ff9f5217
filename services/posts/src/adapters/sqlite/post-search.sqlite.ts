import { jsonList, type SqliteStatement, type SqliteStore } from '@switchyard/sqlite-kit';
import type { PendingEvent, StoredPost } from '../../domain/entities';
import type { FoundPost, PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import { wordMatcher } from '../../domain/search/search-matches';
import type { SearchWord } from '../../domain/search/search-query';
import { PLAN_LIMITS, SearchPlan, type PlanLimits } from './post-search-plan.sqlite';

/** Matching rows read per search at most (the newest stored first). */
export const MAX_CANDIDATES = 50_000;

interface Candidate {
  readonly r: number;
  readonly c: string;
}

/** A found post as stored: its document and pending events (JSON, parsed by toFoundPost), and its matches. */
export interface PostSearchRow {
  readonly doc: string;
  readonly events: string;
  readonly matches: string[];
}

/** A row as read: the document, pending events, and the message and tags its matches are taken from. */
interface Row {
  readonly doc: string;
  readonly events: string;
  readonly message: string;
  readonly hashtags: string;
}

const COLUMNS = "doc, events, coalesce(json_extract(doc, '$.message'), '') AS message, coalesce(json_extract(doc, '$.hashtags'), '') AS hashtags";

/**
 * Post search on the FTS5 tables of migration 4 (schema.sqlite.ts), which triggers keep in the post
 * write's own transaction. Every user-given word reaches FTS5 only inside a double-quoted string whose
 * quotes are doubled, so FTS5 syntax (NEAR, ^, *, column filters, parentheses) in a query is plain text.
 */
export class SqlitePostSearch implements PostSearchIndex {
  private readonly statements = new Map<string, SqliteStatement<unknown[], Row>>();
  private readonly candidateStatements = new Map<string, SqliteStatement<unknown[], Candidate>>();
  private readonly byRowids: SqliteStatement<[string], Row>;
  /** The channel set of a channel list, while that very list is in use (the search scope reuses its list while unchanged). */
  private readonly channelSets = new WeakMap<readonly string[], ReadonlySet<string>>();
  private readonly plan: SearchPlan;

  /** `db`: the store's connection, or a read connection of the same database (a search thread's). */
  /** `limits`: the plan's thresholds (tests force each plan; the defaults otherwise). */
  public constructor(
    private readonly db: SqliteStore['db'],
    limits: PlanLimits = PLAN_LIMITS,
  ) {
    this.plan = new SearchPlan(db, limits);
    this.byRowids = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM p_posts WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY create_at DESC, id DESC`);
  }

  public async search(query: PostSearchQuery): Promise<FoundPost[]> {
    return this.rows(query).map(toFoundPost);
  }

  /** The found posts as stored, newest first, with their matches of `query.highlight` (what `search` parses). */
  public rows(query: PostSearchQuery): PostSearchRow[] {
    const matched = wordMatcher(query.highlight);
    return this.read(query).map((row) => ({ doc: row.doc, events: row.events, matches: matched(row) }));
  }

  private read(query: PostSearchQuery): Row[] {
    if (query.channelIds.length === 0 || !(query.limit > 0)) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    const text = [...query.words.map(wordExpr), ...query.phrases.map(phraseExpr)];
    const tags = query.hashtags.map(quote);
    const tagMatch = tags.join(query.orSearch ? ' OR ' : ' AND ');
    // With a text or tag match, FTS5 drives: its matches newest stored first (rowid DESC, no sort), each post
    // row checked by rowid and its channel here (a set lookup; a list of a thousand channels in SQL costs more
    // than the match), stopping at `limit` hits or MAX_CANDIDATES rows read (bounded work per request).
    // A match's channel, author and time are read from p_posts_search_meta (migration 8), not from its post row;
    // the FTS5 tables hold live, non-system posts only, so a match needs no delete_at or type check.
    const matched = text.length > 0 || tags.length > 0;
    const excludedText = [...query.excludedWords.map(wordExpr), ...query.excludedPhrases.map(phraseExpr)];
    let from = 'p_posts p';
    if (text.length > 0) {
      from = 'p_posts_fts f JOIN p_posts_search_meta p ON p.rowid = f.rowid';
      where.push('f.p_posts_fts MATCH ?');
      const positive = text.join(query.orSearch ? ' OR ' : ' AND ');
      // Excluded words in the match itself (FTS5's NOT merges the doclists as it goes): a `NOT IN` subquery would
      // first read every match of the excluded words (`kabykax -kakakax` at 1M posts: 39 ms → 0.7 ms, same rows).
      params.push(excludedText.length > 0 ? `(${positive}) NOT (${excludedText.join(' OR ')})` : positive);
    }
    if (tags.length > 0) {
      if (text.length > 0) where.push('p.rowid IN (SELECT rowid FROM p_posts_tags_fts WHERE p_posts_tags_fts MATCH ?)');
      else {
        from = 'p_posts_tags_fts f JOIN p_posts_search_meta p ON p.rowid = f.rowid';
        where.push('f.p_posts_tags_fts MATCH ?');
      }
      params.push(tagMatch);
    }
    if (!matched) {
      where.push('p.channel_id IN (SELECT value FROM json_each(?))');
      params.push(jsonList(query.channelIds));
    }
    if (excludedText.length > 0 && text.length === 0) {
      const excluded = excludedText.join(' OR ');
      // `#tag -word` with few tag matches: each checked against the word, not every match of the word read first.
      const checkEach = tags.length > 0 && this.plan.checkEachExcluded(tagMatch, excluded);
      where.push(checkEach ? 'NOT EXISTS (SELECT 1 FROM p_posts_fts x WHERE x.p_posts_fts MATCH ? AND x.rowid = p.rowid)' : 'p.rowid NOT IN (SELECT rowid FROM p_posts_fts WHERE p_posts_fts MATCH ?)');
      params.push(excluded);
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
    if (!matched) return this.filtered(query, where, params);
    const channels = this.channelSetOf(query.channelIds);
    const rowids: number[] = [];
    let driver = 'f';
    // Few posts by the `from:` authors: read those (newest first) and check each in FTS5 (the words' table, or the
    // tags' for a tags-only search), the same rows in the same order as FTS5 driving (SearchPlan). Words and tags
    // together, or excluded tags, stay FTS-driven (their IN/NOT IN would read every tag match).
    const authorsFirst = (text.length > 0) !== (tags.length > 0) && query.excludedHashtags.length === 0 && query.userIds !== undefined;
    const table = text.length > 0 ? 'p_posts_fts' : 'p_posts_tags_fts';
    if (authorsFirst && this.plan.authorsFirst(jsonList(query.userIds ?? []), params[0] as string, table)) {
      driver = 'p';
      from = 'p_posts_search_meta p INDEXED BY p_posts_search_meta_user';
      where[0] = `EXISTS (SELECT 1 FROM ${table} f WHERE f.${table} MATCH ? AND f.rowid = p.rowid)`;
    }
    // A time bound over few posts: FTS5 reads only the rowid range they span, not every newer (`before:`) or older
    // (`after:`) match; the range holds every post of the bound, so the rows are the same.
    const range = driver === 'f' ? this.plan.rowidsWithin(query.time.from, query.time.to) : undefined;
    if (range) {
      where.push('f.rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)');
      params.push(range.lo, range.hi);
    }
    const candidates = this.candidates(`SELECT ${driver}.rowid AS r, p.channel_id AS c FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${driver}.rowid DESC`);
    let read = 0;
    for (const row of candidates.iterate(...params)) {
      read += 1;
      if (read > MAX_CANDIDATES) break;
      if (!channels.has(row.c)) continue;
      rowids.push(row.r);
      if (rowids.length >= query.limit) break;
    }
    if (rowids.length === 0) return [];
    return this.byRowids.all(JSON.stringify(rowids));
  }

  /**
   * A search without words or tags: the newest `limit` live, non-system posts that pass `where` (on the columns
   * of `p`, p_posts or p_posts_search_meta alike), chosen on the rows' columns; the documents are read for those
   * alone. Driven by the few posts of the `from:` authors or of the channels when they are few (read whole and
   * sorted), otherwise by time: all posts newest first (p_posts_search_meta_time), each checked, until `limit`
   * qualify, instead of reading and sorting every post of the channels (1,000 channels of 1,000,000 posts:
   * `from:` a prolific author alone 2.7 s → ~2 ms of SQL). Each plan answers the same posts.
   */
  private filtered(query: PostSearchQuery, where: readonly string[], params: readonly unknown[]): Row[] {
    const driver = this.plan.filterDriver(params[0] as string, query.userIds !== undefined ? jsonList(query.userIds) : undefined);
    const live = (p: string): string => `${p}.delete_at = 0 AND json_extract(${p}.doc, '$.type') NOT LIKE 'system\\_%' ESCAPE '\\'`;
    const chosen =
      driver === 'channels'
        ? `SELECT p.rowid FROM p_posts p WHERE ${where.join(' AND ')} AND ${live('p')} ORDER BY p.create_at DESC, p.id DESC LIMIT ?`
        : `SELECT p.rowid FROM p_posts_search_meta p INDEXED BY ${driver === 'authors' ? 'p_posts_search_meta_user' : 'p_posts_search_meta_time'} CROSS JOIN p_posts d ON d.rowid = p.rowid WHERE ${where.join(' AND ')} AND ${live('d')} ORDER BY p.create_at DESC, d.id DESC LIMIT ?`;
    return this.statement(`SELECT ${COLUMNS} FROM p_posts WHERE rowid IN (${chosen}) ORDER BY create_at DESC, id DESC`).all(...params, query.limit);
  }

  private channelSetOf(ids: readonly string[]): ReadonlySet<string> {
    let set = this.channelSets.get(ids);
    if (!set) {
      set = new Set(ids);
      // Only a frozen list cannot change under its set.
      if (Object.isFrozen(ids)) this.channelSets.set(ids, set);
    }
    return set;
  }

  private candidates(sql: string): SqliteStatement<unknown[], Candidate> {
    let statement = this.candidateStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], Candidate>(sql);
      if (this.candidateStatements.size < 256) this.candidateStatements.set(sql, statement);
    }
    return statement;
  }

  private statement(sql: string): SqliteStatement<unknown[], Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], Row>(sql);
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

function toFoundPost(row: PostSearchRow): FoundPost {
  const post = JSON.parse(row.doc) as StoredPost;
  post.pending_events = row.events === '[]' ? [] : (JSON.parse(row.events) as PendingEvent[]);
  return { post, matches: row.matches };
}
