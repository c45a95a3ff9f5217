import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS } from '@switchyard/mongo-kit';
import type { StoredResponse } from '../../domain/entities';

export const IDEMPOTENCY_COLLECTION = 'incoming_idempotency';

/** `_id` = `<hookId>:<key>` (hook ids are alphanumeric, so the first `:` separates them). */
export interface IdempotencyDocument {
  _id: string;
  hookId: string;
  key: string;
  owner: string;
  createAt: number;
  response?: StoredResponse | null;
}

export const idempotencySchema = new Schema<IdempotencyDocument>(
  {
    _id: { type: String },
    hookId: { type: String },
    key: { type: String },
    owner: { type: String },
    createAt: { type: Number },
    response: { type: Schema.Types.Mixed, default: null },
  },
  SCHEMA_OPTIONS,
);

// _id (built in, unique): reserve (the atomic claim), complete, release, find.
// purge of records past the window (no TTL index: the emulators lack them).
idempotencySchema.index({ createAt: 1 });
// complete (every keyed hook): the MongoDB-wire emulator uses an index only for a filter of exactly its fields, so
// `{ _id, owner }` scanned the whole collection there (ADR 0037's addendum); MongoDB answers it from _id either way.
idempotencySchema.index({ _id: 1, owner: 1 }, { unique: true });

export function idempotencyModel(connection: Connection): Model<IdempotencyDocument> {
  return modelOn(connection, 'IncomingIdempotency', idempotencySchema, IDEMPOTENCY_COLLECTION);
}

export const idempotencyId = (hookId: string, key: string): string => `${hookId}:${key}`;
