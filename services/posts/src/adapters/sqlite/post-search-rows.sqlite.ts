import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { StoredPost } from '../../domain/entities';

/** A system message (`system_*`, ASCII case folded as SQLite's LIKE does) is never in the full-text index. */
const SYSTEM_TYPE = /^system_/i;

/**
 * Writes a new post's search rows (the FTS5 words and hashtags of migration 4, the match metadata of migration 8)
 * in the post insert's own write, right after its row: the same rows the insert triggers wrote before posts
 * migration 12. Not a trigger on purpose: a statement that fires a trigger runs in a statement savepoint, and
 * FTS5 writes its pending terms out as a new index segment at every savepoint, so each trigger-firing write
 * after a post (the next post's insert, a channel's counters) cost one segment per post, with its merges. These
 * single-row inserts open no savepoint, so a group commit's posts share one segment. Edits and deletes keep
 * their triggers (posts migration 4 and 8).
 */
export class NewPostSearchRows {
  private readonly meta;
  private readonly words;
  private readonly tags;

  public constructor(db: SqliteStore['db']) {
    this.meta = db.prepare('INSERT INTO p_posts_search_meta (rowid, channel_id, user_id, create_at) VALUES (?, ?, ?, ?)');
    this.words = db.prepare('INSERT INTO p_posts_fts (rowid, message) VALUES (?, ?)');
    this.tags = db.prepare('INSERT INTO p_posts_tags_fts (rowid, tags) VALUES (?, ?)');
  }

  /** The rows of the post just inserted as `rowid`, inside the caller's write. */
  public add(rowid: number | bigint, post: StoredPost): void {
    const id = BigInt(rowid);
    this.meta.run(id, post.channel_id, post.user_id, post.create_at);
    if (post.delete_at !== 0 || SYSTEM_TYPE.test(post.type ?? '')) return;
    this.words.run(id, post.message ?? '');
    if ((post.hashtags ?? '') !== '') this.tags.run(id, post.hashtags);
  }
}
