import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS } from '@switchyard/mongo-kit';
import type { OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';

export const OPEN_DIALOGS_COLLECTION = 'outgoing_open_dialogs';

export type OpenDialogDocument = Omit<OpenDialogRecord, 'id'> & { _id: string };

export const openDialogSchema = new Schema<OpenDialogDocument>(
  {
    _id: { type: String },
    userId: { type: String },
    url: { type: String },
    callbackId: { type: String },
    state: { type: String },
    notifyOnCancel: { type: Boolean },
    sourceUrl: { type: String },
    lookupUrls: { type: [String] },
    createAt: { type: Number },
    expiresAt: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// findOpen (exact match, newest first) and the per-user cap.
openDialogSchema.index({ userId: 1, url: 1, callbackId: 1, state: 1, createAt: -1 });
openDialogSchema.index({ userId: 1, createAt: -1 });
// Expired dialogs are removed at each insert, as the SQLite adapter does (findOpen also checks expiresAt). Not a
// TTL index: infra.md's portable subset has none (FerretDB refuses expireAfterSeconds; the service did not start on it).
openDialogSchema.index({ expiresAt: 1 });

export function openDialogModel(connection: Connection): Model<OpenDialogDocument> {
  return modelOn(connection, 'OutgoingOpenDialog', openDialogSchema, OPEN_DIALOGS_COLLECTION);
}

export const toOpenDialogDocument = ({ id, ...rest }: OpenDialogRecord): OpenDialogDocument => ({ _id: id, ...rest });

export function fromOpenDialogDocument(doc: OpenDialogDocument): OpenDialogRecord {
  return {
    id: doc._id,
    userId: doc.userId,
    url: doc.url,
    callbackId: doc.callbackId,
    state: doc.state,
    notifyOnCancel: doc.notifyOnCancel,
    sourceUrl: doc.sourceUrl ?? '',
    lookupUrls: [...(doc.lookupUrls ?? [])],
    createAt: doc.createAt,
    expiresAt: doc.expiresAt,
  };
}
