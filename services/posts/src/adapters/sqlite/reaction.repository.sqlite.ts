import { fromDocs, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Reaction } from '../../domain/entities';
import type { ReactionRepository } from '../../domain/ports';

export class SqliteReactionRepository implements ReactionRepository {
  private readonly upsert;
  private readonly deleteRow;
  private readonly byPost;
  private readonly countPost;
  private readonly deleteEmoji;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.upsert = db.prepare(
      'INSERT INTO p_reactions (post_id, user_id, emoji_name, create_at, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (post_id, user_id, emoji_name) DO UPDATE SET create_at = excluded.create_at, doc = excluded.doc',
    );
    this.deleteRow = db.prepare('DELETE FROM p_reactions WHERE user_id = ? AND post_id = ? AND emoji_name = ?');
    this.byPost = db.prepare<[string], DocRow>('SELECT doc FROM p_reactions WHERE post_id = ? ORDER BY create_at, user_id, emoji_name');
    this.countPost = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM p_reactions WHERE post_id = ?');
    this.deleteEmoji = db.prepare<[string], { post_id: string }>('DELETE FROM p_reactions WHERE emoji_name = ? RETURNING post_id');
  }

  public async save(reaction: Reaction): Promise<Reaction> {
    const doc = JSON.stringify(reaction);
    await this.store.writeOne(() => this.upsert.run(reaction.post_id, reaction.user_id, reaction.emoji_name, reaction.create_at, doc));
    return JSON.parse(doc) as Reaction;
  }

  public async delete(userId: string, postId: string, emojiName: string): Promise<boolean> {
    return this.store.writeOne(() => this.deleteRow.run(userId, postId, emojiName).changes === 1);
  }

  public async listByPost(postId: string): Promise<Reaction[]> {
    return fromDocs<Reaction>(this.byPost.all(postId));
  }

  public async deleteByEmojiName(emojiName: string): Promise<string[]> {
    const rows = await this.store.writeOne(() => this.deleteEmoji.all(emojiName));
    return [...new Set(rows.map((r) => r.post_id))];
  }

  public async countByPost(postId: string): Promise<number> {
    return this.countPost.get(postId)?.n ?? 0;
  }
}
