import type { Model } from '@switchyard/mongo-kit';
import type { Reaction } from '../../domain/entities';
import type { ReactionRepository } from '../../domain/ports';
import { fromReactionDocument, type ReactionDocument } from './reaction.schema.mongo';

export class MongoReactionRepository implements ReactionRepository {
  public constructor(private readonly model: Model<ReactionDocument>) {}

  public async save(reaction: Reaction): Promise<Reaction> {
    const key = { post_id: reaction.post_id, user_id: reaction.user_id, emoji_name: reaction.emoji_name };
    await this.model.replaceOne(key, { ...reaction }, { upsert: true });
    return { ...reaction };
  }

  public async delete(userId: string, postId: string, emojiName: string): Promise<boolean> {
    const result = await this.model.deleteOne({ post_id: postId, user_id: userId, emoji_name: emojiName });
    return result.deletedCount > 0;
  }

  public async listByPost(postId: string): Promise<Reaction[]> {
    const docs = await this.model.find({ post_id: postId }).sort({ create_at: 1, user_id: 1, emoji_name: 1 }).lean<ReactionDocument[]>();
    return docs.map(fromReactionDocument);
  }

  public async deleteByEmojiName(emojiName: string): Promise<string[]> {
    const name = String(emojiName);
    const postIds = (await this.model.distinct('post_id', { emoji_name: name })) as string[];
    if (postIds.length > 0) await this.model.deleteMany({ emoji_name: name });
    return postIds;
  }

  public async countByPost(postId: string): Promise<number> {
    return this.model.countDocuments({ post_id: postId });
  }
}
