import { duplicateKeyField, isDuplicateKeyError as isMongoDuplicateKey, type Connection, type Model, type Schema } from '@switchyard/mongo-kit';
import { DuplicateKeyError } from '../../domain/errors';
import type { Page } from '../../domain/ports';

/**
 * Options shared by every schema of this service: no `__v`, empty objects kept, unknown fields fail
 * loudly, and no index or collection built behind our back (createPostsMongoRepositories does it).
 */
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

const messageOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
};

/**
 * A unique-index violation as the domain's DuplicateKeyError: `keys` maps a document field (or index
 * name prefix) to the domain key; a single-key collection names it whatever the server says.
 */
export function asDomainError(error: unknown, keys: Readonly<Record<string, string>>): unknown {
  if (!isMongoDuplicateKey(error)) return error;
  let field = duplicateKeyField(error);
  if (field === undefined && /index: _id_\b/.test(messageOf(error))) field = '_id';
  const known = field === undefined ? undefined : keys[field];
  if (known !== undefined) return new DuplicateKeyError(known);
  const distinct = [...new Set(Object.values(keys))];
  return new DuplicateKeyError(distinct.length === 1 && distinct[0] !== undefined ? distinct[0] : (field ?? 'unknown'));
}

export function pageWindow(page: Page): { skip: number; limit: number } | undefined {
  if (!(page.perPage > 0) || !(page.page >= 0)) return undefined;
  return { skip: page.page * page.perPage, limit: page.perPage };
}

/** `$set` fields of a partial update: undefined values and identity keys skipped. */
export function setOf(changes: object, identity: readonly string[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || identity.includes(key) || key === '_id') continue;
    set[key] = value;
  }
  return set;
}

/** Drops `_id` (renamed `id` when `idField`) from a lean document. */
export function withoutMongoKeys<T>(doc: Record<string, unknown>, idField: boolean): T {
  const { _id, __v: _version, ...rest } = doc;
  return (idField ? { id: String(_id), ...rest } : rest) as T;
}

export type Filter = Record<string, unknown>;
