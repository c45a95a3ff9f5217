import { Schema, toDocument, toPlain, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Session } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const SESSIONS_COLLECTION = 'sessions';

/** A stored session: the entity with `_id` for `id`. */
export type SessionDocument = Omit<Session, 'id'> & { _id: string };

export const sessionSchema = new Schema<SessionDocument>(
  {
    _id: { type: String },
    tokenHash: { type: String },
    userId: { type: String },
    type: { type: String },
    tokenId: { type: String },
    csrfToken: { type: String },
    isBot: { type: Boolean },
    deviceId: { type: String },
    createAt: { type: Number },
    expiresAt: { type: Number },
    lastActivityAt: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById, deleteById, and the deletes of the ids found below; DuplicateKeyError('id').
// findByTokenHash (every authenticated request that misses the gateway's cache); DuplicateKeyError('tokenHash').
sessionSchema.index({ tokenHash: 1 }, { unique: true });
// listByUser (oldest first) and deleteByUser (logout everywhere, deactivation, deletion).
sessionSchema.index({ userId: 1, createAt: 1 });
// deleteByTokenId (a personal access token revoked or disabled ends its sessions).
sessionSchema.index({ tokenId: 1 });
// No TTL index on expiresAt (outside the portable subset): expired sessions are refused when resolved.

export function sessionModel(connection: Connection): Model<SessionDocument> {
  return modelOn(connection, 'Session', sessionSchema, SESSIONS_COLLECTION);
}

export const toSessionDocument = (session: Session): SessionDocument => toDocument(session);
export const fromSessionDocument = (doc: SessionDocument): Session => toPlain<Session>(doc);
