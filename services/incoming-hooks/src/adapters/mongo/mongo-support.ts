import type { Connection, Model, Schema } from '@switchyard/mongo-kit';

/** Schema options of this service (see users-bots' mongo-support for the reasons). */
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

/** A unique-index violation as MongoDB, mongo-java-server and FerretDB report it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === 11000) return true;
  return e?.code === 1 && typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}
