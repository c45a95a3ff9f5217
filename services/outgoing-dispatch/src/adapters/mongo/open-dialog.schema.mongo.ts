import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS } from '@switchyard/mongo-kit';
import type { OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';

export const OPEN_DIALOGS_COLLECTION = 'outgoing_open_dialogs';

export type OpenDialogDocument = Omit<OpenDialogRecord, 'id'> & { _id: string; expireAt: Date };

export const openDialogSchema = new Schema<OpenDialogDocument>(
  {
    _id: { type: String },
    userId: { type: String },
    url: { type: String },
    callbackId: { type: String },
    state: { type: String },
    notifyOnCancel: { type: Boolean },
    createAt: { type: Number },
    expiresAt: { type: Number },
    expireAt: { type: Date },
  },
  SCHEMA_OPTIONS,
);

// findOpen (exact match, newest first) and the per-user cap.
openDialogSchema.index({ userId: 1, url: 1, callbackId: 1, state: 1, createAt: -1 });
openDialogSchema.index({ userId: 1, createAt: -1 });
// MongoDB removes expired dialogs itself (findOpen also checks expiresAt, the TTL monitor runs once a minute).
openDialogSchema.index({ expireAt: 1 }, { expireAfterSeconds: 0 });

export function openDialogModel(connection: Connection): Model<OpenDialogDocument> {
  return modelOn(connection, 'OutgoingOpenDialog', openDialogSchema, OPEN_DIALOGS_COLLECTION);
}

export const toOpenDialogDocument = ({ id, ...rest }: OpenDialogRecord): OpenDialogDocument => ({ _id: id, ...rest, expireAt: new Date(rest.expiresAt) });

export function fromOpenDialogDocument(doc: OpenDialogDocument): OpenDialogRecord {
  return { id: doc._id, userId: doc.userId, url: doc.url, callbackId: doc.callbackId, state: doc.state, notifyOnCancel: doc.notifyOnCancel, createAt: doc.createAt, expiresAt: doc.expiresAt };
}
