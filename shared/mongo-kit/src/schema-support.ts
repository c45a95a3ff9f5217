import type { Connection, Model, Schema } from 'mongoose';

/**
 * Options every service's schemas share:
 * - `versionKey: false`: no `__v` (documents are written whole or with `$set`, never with optimistic locking);
 * - `minimize: false`: `props: {}` stays `{}` (mongoose would drop empty objects and reads would miss the key);
 * - `strict: 'throw'`: an entity field the schema does not know fails loudly instead of being dropped;
 * - `autoIndex/autoCreate: false`: nothing runs behind our back when a model compiles; each service's
 *   repository factory creates its indexes explicitly and awaits them.
 */
export const SCHEMA_OPTIONS = {
  versionKey: false,
  minimize: false,
  strict: 'throw',
  id: false,
  autoIndex: false,
  autoCreate: false,
} as const;

/** The connection's model of that name, compiled once (a second factory call reuses it). */
export function modelOn<T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> {
  const existing = connection.models[name] as Model<T> | undefined;
  return existing ?? connection.model<T>(name, schema, collection);
}

/** `$set` fields of a partial update: undefined values, identity keys and `_id` skipped. */
export function setOf(changes: object, identity: readonly string[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || identity.includes(key) || key === '_id') continue;
    set[key] = value;
  }
  return set;
}

/**
 * A unique-index violation as MongoDB and mongo-java-server report it (E11000), or as FerretDB v1 does
 * (code 1 with SQLite's `UNIQUE constraint failed`). The write did not happen.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === 11000) return true;
  return e?.code === 1 && typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}
