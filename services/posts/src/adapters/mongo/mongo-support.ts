import { duplicateKeyField, isDuplicateKeyError as isMongoDuplicateKey } from '@switchyard/mongo-kit';
import { DuplicateKeyError } from '../../domain/errors';
import type { Page } from '../../domain/ports';

export { SCHEMA_OPTIONS, modelOn, setOf } from '@switchyard/mongo-kit';

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

/**
 * The positions of an unordered bulk insert's documents refused for an existing key, ascending; undefined
 * when the error is anything else or any write failed for another reason (the caller throws it then).
 */
export function duplicateIndexes(error: unknown): number[] | undefined {
  const bulk = error as { writeErrors?: unknown; result?: { getWriteConcernError?: () => unknown } } | null;
  const reported = bulk?.writeErrors;
  if (reported === undefined || reported === null) return undefined;
  if (bulk?.result?.getWriteConcernError?.()) return undefined;
  const writeErrors = (Array.isArray(reported) ? reported : [reported]) as { index?: unknown; code?: unknown }[];
  if (writeErrors.length === 0) return undefined;
  const indexes: number[] = [];
  for (const writeError of writeErrors) {
    if (writeError.code !== 11000 || typeof writeError.index !== 'number') return undefined;
    indexes.push(writeError.index);
  }
  return indexes.sort((a, b) => a - b);
}

export function pageWindow(page: Page): { skip: number; limit: number } | undefined {
  if (!(page.perPage > 0) || !(page.page >= 0)) return undefined;
  return { skip: page.page * page.perPage, limit: page.perPage };
}

/** Drops `_id` (renamed `id` when `idField`) from a lean document. */
export function withoutMongoKeys<T>(doc: Record<string, unknown>, idField: boolean): T {
  const { _id, __v: _version, ...rest } = doc;
  return (idField ? { id: String(_id), ...rest } : rest) as T;
}

export type Filter = Record<string, unknown>;

/** `{ _id: id }` for the driver's collection, whose typings assume ObjectId ids (ours are strings). */
export function byId(id: string): never {
  return { _id: id } as never;
}
