import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS, toDocument, toPlain } from '@switchyard/mongo-kit';
import { withHookDefaults, type OutgoingHook } from '../../domain/entities';

export const OUTGOING_HOOKS_COLLECTION = 'outgoing_hooks';

export type OutgoingHookDocument = Omit<OutgoingHook, 'id' | 'triggerWords' | 'callbackUrls' | 'eventTypes'> & { _id: string; triggerWords: string[]; callbackUrls: string[]; eventTypes: string[] };

export const outgoingHookSchema = new Schema<OutgoingHookDocument>(
  {
    _id: { type: String },
    token: { type: String },
    createAt: { type: Number },
    updateAt: { type: Number },
    deleteAt: { type: Number },
    creatorId: { type: String },
    channelId: { type: String },
    teamId: { type: String },
    triggerWords: { type: [String], default: undefined },
    triggerWhen: { type: Number },
    callbackUrls: { type: [String], default: undefined },
    displayName: { type: String },
    description: { type: String },
    contentType: { type: String },
    username: { type: String },
    iconUrl: { type: String },
    signingSecret: { type: String },
    previousSigningSecret: { type: String },
    previousSecretExpiresAt: { type: Number },
    disabledAt: { type: Number },
    signingAlgorithm: { type: String },
    signingKey: { type: String },
    previousSigningKey: { type: String },
    eventTypes: { type: [String], default: undefined },
    botUserId: { type: String },
  },
  SCHEMA_OPTIONS,
);

// findByTeam (firing, intersect checks) and list by team, oldest first.
outgoingHookSchema.index({ teamId: 1, deleteAt: 1, createAt: 1 });
// list by channel.
outgoingHookSchema.index({ channelId: 1, deleteAt: 1, createAt: 1 });

export function outgoingHookModel(connection: Connection): Model<OutgoingHookDocument> {
  return modelOn(connection, 'OutgoingHook', outgoingHookSchema, OUTGOING_HOOKS_COLLECTION);
}

export const toHookDocument = (hook: OutgoingHook): OutgoingHookDocument => toDocument({ ...hook, triggerWords: [...hook.triggerWords], callbackUrls: [...hook.callbackUrls], eventTypes: [...hook.eventTypes] });
export const fromHookDocument = (doc: OutgoingHookDocument): OutgoingHook => withHookDefaults(toPlain<OutgoingHook>(doc));
