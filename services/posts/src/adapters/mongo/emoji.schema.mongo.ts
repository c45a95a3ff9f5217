import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Emoji } from '../../domain/emoji/emoji';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const EMOJI_COLLECTION = 'emoji';

/** A stored custom emoji: `_id` is the emoji id. */
export type EmojiDocument = Omit<Emoji, 'id'> & { _id: string };

export const emojiSchema = new Schema<EmojiDocument>(
  {
    _id: String,
    create_at: Number,
    update_at: Number,
    delete_at: Number,
    creator_id: String,
    name: String,
  },
  SCHEMA_OPTIONS,
);

// A live name is unique (the reference's (Name, DeleteAt) key); by name (find, search, list sorted by name).
emojiSchema.index({ name: 1, delete_at: 1 }, { unique: true });
// list oldest first.
emojiSchema.index({ delete_at: 1, create_at: 1 });
// The live emoji by id (findById, softDelete): the MongoDB-wire emulator uses an index only for a filter of
// exactly its fields, so `{ _id, delete_at: 0 }` scanned the collection there (ADR 0037's addendum); MongoDB
// answers it from _id either way.
emojiSchema.index({ _id: 1, delete_at: 1 }, { unique: true });

export function emojiModel(connection: Connection): Model<EmojiDocument> {
  return modelOn(connection, 'PostsEmoji', emojiSchema, EMOJI_COLLECTION);
}

export const fromEmojiDocument = (doc: EmojiDocument): Emoji => withoutMongoKeys<Emoji>(doc as unknown as Record<string, unknown>, true);
