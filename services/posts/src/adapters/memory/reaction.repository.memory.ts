import type { Reaction } from '../../domain/entities';
import type { ReactionRepository } from '../../domain/ports';
import { compareIds, copy } from './memory-utils';

const keyOf = (userId: string, postId: string, emoji: string): string => `${postId}:${userId}:${emoji}`;

export class MemoryReactionRepository implements ReactionRepository {
  private readonly byKey = new Map<string, Reaction>();

  public async save(reaction: Reaction): Promise<Reaction> {
    this.byKey.set(keyOf(reaction.user_id, reaction.post_id, reaction.emoji_name), copy(reaction));
    return copy(reaction);
  }

  public async delete(userId: string, postId: string, emojiName: string): Promise<boolean> {
    return this.byKey.delete(keyOf(userId, postId, emojiName));
  }

  public async listByPost(postId: string): Promise<Reaction[]> {
    return [...this.byKey.values()]
      .filter((r) => r.post_id === postId)
      .sort((a, b) => a.create_at - b.create_at || compareIds(a.user_id, b.user_id) || compareIds(a.emoji_name, b.emoji_name))
      .map(copy);
  }

  public async deleteByEmojiName(emojiName: string): Promise<string[]> {
    const posts = new Set<string>();
    for (const [key, r] of this.byKey) {
      if (r.emoji_name !== emojiName) continue;
      this.byKey.delete(key);
      posts.add(r.post_id);
    }
    return [...posts];
  }

  public async countByPost(postId: string): Promise<number> {
    let n = 0;
    for (const r of this.byKey.values()) if (r.post_id === postId) n += 1;
    return n;
  }
}
