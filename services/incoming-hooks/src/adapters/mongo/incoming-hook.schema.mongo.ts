import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS, toDocument, toPlain } from '@switchyard/mongo-kit';
import type { IncomingHook } from '../../domain/entities';

export const INCOMING_HOOKS_COLLECTION = 'incoming_hooks';

export type IncomingHookDocument = Omit<IncomingHook, 'id'> & { _id: string };

export const incomingHookSchema = new Schema<IncomingHookDocument>(
  {
    _id: { type: String },
    createAt: { type: Number },
    updateAt: { type: Number },
    deleteAt: { type: Number },
    userId: { type: String },
    channelId: { type: String },
    teamId: { type: String },
    displayName: { type: String },
    description: { type: String },
    username: { type: String },
    iconUrl: { type: String },
    channelLocked: { type: Boolean },
    reactionNotifications: { type: Boolean },
    // Hook transform (absent on older documents; arrays without mongoose's [] default, so absent stays absent).
    transform: { type: Schema.Types.Mixed },
    onlyEvents: { type: [String], default: undefined },
    excludeEvents: { type: [String], default: undefined },
    transformSecret: { type: String },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById (every POST /hooks/{key}), update.
// list/count with team_id (and owner when the caller cannot manage others' hooks), oldest first.
incomingHookSchema.index({ teamId: 1, deleteAt: 1, createAt: 1, _id: 1 });
// list/count of one owner's hooks without team_id.
incomingHookSchema.index({ userId: 1, deleteAt: 1, createAt: 1, _id: 1 });
// list/count of every hook (system admin without team_id).
incomingHookSchema.index({ deleteAt: 1, createAt: 1, _id: 1 });

export function incomingHookModel(connection: Connection): Model<IncomingHookDocument> {
  return modelOn(connection, 'IncomingHook', incomingHookSchema, INCOMING_HOOKS_COLLECTION);
}

export const toHookDocument = (hook: IncomingHook): IncomingHookDocument => toDocument(hook);
export const fromHookDocument = (doc: IncomingHookDocument): IncomingHook => toPlain<IncomingHook>(doc);
