import type { Connection, Model, Schema } from '@switchyard/mongo-kit';

/** As users-bots: no `__v`, empty objects kept, unknown fields refused, indexes created explicitly. */
export const SCHEMA_OPTIONS = {
  versionKey: false,
  minimize: false,
  strict: 'throw',
  id: false,
  autoIndex: false,
  autoCreate: false,
} as const;

export function modelOn<T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> {
  const existing = connection.models[name] as Model<T> | undefined;
  return existing ?? connection.model<T>(name, schema, collection);
}

/** The fields of a partial update worth a `$set` (undefined means unchanged). */
export function setOf(changes: object, identity: readonly string[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || identity.includes(key) || key === '_id') continue;
    set[key] = value;
  }
  return set;
}
