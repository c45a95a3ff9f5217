import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Reaction } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const REACTIONS_COLLECTION = 'reactions';

/** A stored reaction: the entity; `_id` is mongoose's ObjectId and never leaves the adapter. */
export type ReactionDocument = Reaction & { _id?: unknown };

export const reactionSchema = new Schema<ReactionDocument>(
  {
    user_id: String,
    post_id: String,
    emoji_name: String,
    create_at: Number,
    update_at: Number,
    delete_at: Number,
    remote_id: String,
    channel_id: String,
  },
  SCHEMA_OPTIONS,
);

// save (upsert by the triple), delete; one reaction per user, post and emoji.
reactionSchema.index({ post_id: 1, user_id: 1, emoji_name: 1 }, { unique: true });
// listByPost (oldest first) and countByPost.
reactionSchema.index({ post_id: 1, create_at: 1 });

export function reactionModel(connection: Connection): Model<ReactionDocument> {
  return modelOn(connection, 'PostsReaction', reactionSchema, REACTIONS_COLLECTION);
}

export const fromReactionDocument = (doc: ReactionDocument): Reaction => withoutMongoKeys<Reaction>(doc as unknown as Record<string, unknown>, false);
