import { Schema, toDocument, toPlain, type Connection, type Model } from '@switchyard/mongo-kit';
import type { AccessToken } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const ACCESS_TOKENS_COLLECTION = 'access_tokens';

/** A stored personal access token (its sha256 only): the entity with `_id` for `id`. */
export type AccessTokenDocument = Omit<AccessToken, 'id'> & { _id: string };

export const accessTokenSchema = new Schema<AccessTokenDocument>(
  {
    _id: { type: String },
    tokenHash: { type: String },
    userId: { type: String },
    description: { type: String },
    isActive: { type: Boolean },
    expiresAt: { type: Number },
    createAt: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById, setActive, deleteById; DuplicateKeyError('id').
// findByTokenHash (resolving a bearer token that is not a session); DuplicateKeyError('tokenHash').
accessTokenSchema.index({ tokenHash: 1 }, { unique: true });
// listByUser (oldest first: createAt, then id, paged) and deleteByUser.
accessTokenSchema.index({ userId: 1, createAt: 1, _id: 1 });
// listAll (oldest first: createAt, then id, paged).
accessTokenSchema.index({ createAt: 1, _id: 1 });

export function accessTokenModel(connection: Connection): Model<AccessTokenDocument> {
  return modelOn(connection, 'AccessToken', accessTokenSchema, ACCESS_TOKENS_COLLECTION);
}

export const toAccessTokenDocument = (token: AccessToken): AccessTokenDocument => toDocument(token);
export const fromAccessTokenDocument = (doc: AccessTokenDocument): AccessToken => toPlain<AccessToken>(doc);
