import type { SqliteStatement, SqliteStore } from '@switchyard/sqlite-kit';

/** Authors are read first (or a tags-only search's matches checked one by one) only while fewer than this (counting costs as many steps). */
export const AUTHOR_FIRST_MAX_POSTS = 1_000;

/**
 * FTS5 matches one post's check by rowid costs as much as, read in order: checking a post is a new FTS5 lookup
 * (~30-85 µs at 1,000,000 posts, it parses the expression and seeks each term), reading a match with its search
 * row ~0.35 µs (measured on the bench's 1,000,000-post store).
 */
export const MATCHES_PER_POINT_CHECK = 250;

/** Matches of excluded words a `NOT IN` reads (~0.12 µs each, into a temporary index) for the cost of one point check. */
export const EXCLUDED_MATCHES_PER_POINT_CHECK = 500;

/** A time bound narrows FTS5 to a rowid range only while it holds fewer posts than this (counting costs as many index steps). */
export const TIME_RANGE_MAX_POSTS = 10_000;

/**
 * A search without words or tags reads the searched channels' posts (and sorts them) only while they hold fewer
 * than this; otherwise it walks all posts newest first (p_posts_search_meta_time) until enough qualify.
 */
export const CHANNEL_FIRST_MAX_POSTS = 10_000;

/** The thresholds of the plan (tests force each plan with their own). */
export interface PlanLimits {
  readonly authorFirstMaxPosts: number;
  readonly matchesPerPointCheck: number;
  readonly excludedMatchesPerPointCheck: number;
  readonly timeRangeMaxPosts: number;
  readonly channelFirstMaxPosts: number;
}

export const PLAN_LIMITS: PlanLimits = {
  authorFirstMaxPosts: AUTHOR_FIRST_MAX_POSTS,
  matchesPerPointCheck: MATCHES_PER_POINT_CHECK,
  excludedMatchesPerPointCheck: EXCLUDED_MATCHES_PER_POINT_CHECK,
  timeRangeMaxPosts: TIME_RANGE_MAX_POSTS,
  channelFirstMaxPosts: CHANNEL_FIRST_MAX_POSTS,
};

/**
 * What a search without words or tags reads first: the `from:` authors' posts (few of them), the searched
 * channels' posts (few of them), or every post newest first by time, each checked, until `limit` qualify.
 * All three answer the newest qualifying posts by (create_at, id), so the answer is the same.
 */
export type FilterDriver = 'authors' | 'channels' | 'time';

/** The rowids of all posts in a time range lie in [lo, hi] (lo > hi: no post at all). */
export interface RowidRange {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The plan of a `from:` search with words: either FTS5 drives (its matches newest first, each match's author
 * checked), or the authors' posts do (newest first by p_posts_search_meta_user, migration 10, each post checked
 * in FTS5 by rowid). Both read the same rows in the same order, so the answer is the same; the choice only
 * bounds the work: an author with few posts and a common word reads those few posts, not every match of the
 * word. Deciding costs two bounded counts: the authors' posts up to AUTHOR_FIRST_MAX_POSTS and the matches up
 * to MATCHES_PER_POINT_CHECK per author post.
 */
export class SearchPlan {
  private readonly authorPosts: SqliteStatement<[string, number], { n: number }>;
  private readonly matches: SqliteStatement<[string, number], { n: number }>;
  private readonly tagMatches: SqliteStatement<[string, number], { n: number }>;
  private readonly timeRange: SqliteStatement<[number, number, number], { n: number; lo: number | null; hi: number | null }>;
  private readonly channelPosts: SqliteStatement<[string, number], { n: number }>;
  /**
   * Author lists already seen with AUTHOR_FIRST_MAX_POSTS posts or more (JSON), so a frequent author's search
   * does not count again (~0.1 ms at 1,000,000 posts). The plan never changes the answer, so an entry that
   * deletions made stale only keeps FTS5 driving.
   */
  private readonly prolific = new Set<string>();

  public constructor(
    db: SqliteStore['db'],
    private readonly limits: PlanLimits = PLAN_LIMITS,
  ) {
    this.authorPosts = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM p_posts_search_meta WHERE user_id IN (SELECT value FROM json_each(?)) LIMIT ?)',
    );
    this.matches = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT rowid FROM p_posts_fts WHERE p_posts_fts MATCH ? LIMIT ?)',
    );
    this.tagMatches = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT rowid FROM p_posts_tags_fts WHERE p_posts_tags_fts MATCH ? LIMIT ?)',
    );
    this.timeRange = db.prepare<[number, number, number], { n: number; lo: number | null; hi: number | null }>(
      'SELECT count(*) AS n, min(rowid) AS lo, max(rowid) AS hi FROM (SELECT rowid FROM p_posts_search_meta INDEXED BY p_posts_search_meta_time WHERE create_at >= ? AND create_at <= ? LIMIT ?)',
    );
    this.channelPosts = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM p_posts INDEXED BY p_posts_channel WHERE channel_id IN (SELECT value FROM json_each(?)) LIMIT ?)',
    );
  }

  /**
   * The driver of a search without words or tags (`channelIds`, `userIds`: JSON lists). Deciding costs at most
   * two bounded counts (the authors' posts, the channels' posts).
   */
  public filterDriver(channelIds: string, userIds: string | undefined): FilterDriver {
    if (userIds !== undefined && this.fewAuthorPosts(userIds) !== undefined) return 'authors';
    const posts = this.channelPosts.get(channelIds, this.limits.channelFirstMaxPosts)?.n ?? this.limits.channelFirstMaxPosts;
    return posts < this.limits.channelFirstMaxPosts ? 'channels' : 'time';
  }

  /** How many posts the authors of `userIds` (a JSON list) wrote, when fewer than authorFirstMaxPosts; undefined otherwise. */
  private fewAuthorPosts(userIds: string): number | undefined {
    if (this.prolific.has(userIds)) return undefined;
    const posts = this.authorPosts.get(userIds, this.limits.authorFirstMaxPosts)?.n ?? this.limits.authorFirstMaxPosts;
    if (posts < this.limits.authorFirstMaxPosts) return posts;
    if (this.prolific.size >= 4_096) this.prolific.clear();
    this.prolific.add(userIds);
    return undefined;
  }

  /**
   * Whether reading the posts of `userIds` (a JSON list) first reads less than the matches of the FTS5 expression
   * `match` on `table` (the words' table, or the tags' for a tags-only search: `#tag from:x`, 94 → 2 ms at 1,000,000
   * posts for an author of 300 posts and a tag on 100,000).
   */
  public authorsFirst(userIds: string, match: string, table: 'p_posts_fts' | 'p_posts_tags_fts' = 'p_posts_fts'): boolean {
    const posts = this.fewAuthorPosts(userIds);
    if (posts === undefined) return false;
    const enough = posts * this.limits.matchesPerPointCheck;
    return ((table === 'p_posts_fts' ? this.matches : this.tagMatches).get(match, enough)?.n ?? 0) >= enough;
  }

  /**
   * Whether checking each match of the tags expression `tags` against the excluded words (`excluded`, an FTS5
   * expression) reads less than a `NOT IN` of every match of the excluded words (a tags-only search: `#tag -word`).
   */
  public checkEachExcluded(tags: string, excluded: string): boolean {
    const found = this.tagMatches.get(tags, this.limits.authorFirstMaxPosts)?.n ?? this.limits.authorFirstMaxPosts;
    // A handful of checks costs about what counting the excluded words would (≤ ~1 ms): no count.
    if (found <= 16) return true;
    return found < this.limits.authorFirstMaxPosts && this.matchesReach(excluded, found * this.limits.excludedMatchesPerPointCheck);
  }

  /** Whether the text expression `match` matches at least `enough` posts (reading at most that many). */
  private matchesReach(match: string, enough: number): boolean {
    return (this.matches.get(match, enough)?.n ?? 0) >= enough;
  }

  /**
   * The rowid range of every post stored with `from <= create_at <= to`, when fewer than TIME_RANGE_MAX_POSTS are: the
   * least and greatest rowid of the complete set (p_posts_search_meta_time, migration 11), so it holds each of them
   * even where rowid order and time order differ (a post given an old create_at). Undefined: no bound or too many posts.
   */
  public rowidsWithin(from: number | undefined, to: number | undefined): RowidRange | undefined {
    if (from === undefined && to === undefined) return undefined;
    const row = this.timeRange.get(from ?? Number.MIN_SAFE_INTEGER, to ?? Number.MAX_SAFE_INTEGER, this.limits.timeRangeMaxPosts);
    if (!row || row.n >= this.limits.timeRangeMaxPosts) return undefined;
    return row.n === 0 || row.lo === null || row.hi === null ? { lo: 1, hi: 0 } : { lo: row.lo, hi: row.hi };
  }
}
