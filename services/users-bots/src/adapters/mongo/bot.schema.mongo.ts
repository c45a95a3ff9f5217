import { Schema, toDocument, toPlain, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Bot } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const BOTS_COLLECTION = 'bots';

/** A stored Bots row: the entity with `_id` for `id` (the bot's user id). */
export type BotDocument = Omit<Bot, 'id'> & { _id: string };

export const botSchema = new Schema<BotDocument>(
  {
    _id: { type: String },
    displayName: { type: String },
    description: { type: String },
    ownerId: { type: String },
    createAt: { type: Number },
    updateAt: { type: Number },
    deleteAt: { type: Number },
    lastIconUpdate: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById, findByIds, update, delete; DuplicateKeyError('id').
// findByOwner and list with `ownerId`/`ownerIds` (oldest first: createAt, then id).
botSchema.index({ ownerId: 1, createAt: 1, _id: 1 });
// list without an owner filter (oldest first, paged; disabled ones filtered alongside).
botSchema.index({ createAt: 1, _id: 1 });

export function botModel(connection: Connection): Model<BotDocument> {
  return modelOn(connection, 'Bot', botSchema, BOTS_COLLECTION);
}

export const toBotDocument = (bot: Bot): BotDocument => toDocument(bot);
export const fromBotDocument = (doc: BotDocument): Bot => toPlain<Bot>(doc);
