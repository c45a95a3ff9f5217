import { duplicateKeyField, isDuplicateKeyError as isMongoDuplicateKey } from '@switchyard/mongo-kit';
import { DuplicateKeyError } from '../../domain/errors';
import type { Page } from '../../domain/ports';

export { SCHEMA_OPTIONS, modelOn, setOf } from '@switchyard/mongo-kit';

/**
 * FerretDB v1 (SQLite) answers an update or findAndModify that breaks a unique index with
 * `InternalError` (code 1) and SQLite's text instead of E11000:
 * `... UNIQUE constraint failed: index 'users_5e7cc513_username_1' (2067)`. The write did not happen.
 */
const SQLITE_UNIQUE = /UNIQUE constraint failed: index '[^']*?_[0-9a-f]{8}_([^']+)'/;

const messageOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
};

/** A unique-index violation, as MongoDB and the emulators report it. */
export function isUniqueViolation(error: unknown): boolean {
  if (isMongoDuplicateKey(error)) return true;
  return (error as { code?: unknown } | null)?.code === 1 && SQLITE_UNIQUE.test(messageOf(error));
}

/**
 * The field whose unique index was violated, as far as the server says: MongoDB 4.4+ sends
 * `keyPattern`/`keyValue`; mongo-java-server only names the index in the message
 * (`... index: username_1 dup key: ...`, `... index: _id_ dup key: ...`); FerretDB names no index on
 * inserts (`E11000 duplicate key error collection: db.users`) and a SQLite one on updates.
 */
export function violatedField(error: unknown): string | undefined {
  const field = duplicateKeyField(error);
  if (field !== undefined) return field;
  const keyValue = (error as { keyValue?: unknown } | null)?.keyValue;
  if (keyValue && typeof keyValue === 'object') {
    const [first] = Object.keys(keyValue);
    if (first !== undefined) return first;
  }
  const message = messageOf(error);
  if (/index: _id_\b/.test(message)) return '_id';
  const sqliteIndex = SQLITE_UNIQUE.exec(message)?.[1];
  return sqliteIndex === undefined ? undefined : /^(\w+?)_-?1(?:_|$)/.exec(sqliteIndex)?.[1];
}

/**
 * Turns a unique-index violation into the domain's `DuplicateKeyError` naming the key (`keys` maps a
 * document field to the domain key: `{ _id: 'id', username: 'username' }`); any other error comes back
 * unchanged. When the server does not say which index it was, `probe` asks the collection which key
 * is taken (only on this error path); failing that, a collection with a single key names it.
 */
export async function asDomainError(
  error: unknown,
  keys: Readonly<Record<string, string>>,
  probe?: () => Promise<string | undefined>,
): Promise<unknown> {
  if (!isUniqueViolation(error)) return error;
  const field = violatedField(error);
  const known = field === undefined ? undefined : keys[field];
  if (known !== undefined) return new DuplicateKeyError(known);
  const probed = probe ? await probe() : undefined;
  if (probed !== undefined) return new DuplicateKeyError(probed);
  const distinct = [...new Set(Object.values(keys))];
  return new DuplicateKeyError(distinct.length === 1 && distinct[0] !== undefined ? distinct[0] : (field ?? 'unknown'));
}

/** skip/limit of a page; undefined when the page is empty by definition (MongoDB reads `limit(0)` as "no limit"). */
export function pageWindow(page: Page): { skip: number; limit: number } | undefined {
  if (!(page.perPage > 0) || !(page.page >= 0)) return undefined;
  return { skip: page.page * page.perPage, limit: page.perPage };
}

/** `items` in the order of `keys` (repeats included, missing ones skipped), as the memory adapters answer. */
export function inRequestedOrder<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map(items.map((item) => [keyOf(item), item] as const));
  const used = new Set<string>();
  return keys.flatMap((key) => {
    const item = byKey.get(key);
    if (item === undefined) return [];
    if (used.has(key)) return [structuredClone(item)]; // a repeat gets its own copy
    used.add(key);
    return [item];
  });
}

/** A filter object for `find`/`countDocuments` built field by field (the typed form does not allow that). */
export type Filter = Record<string, unknown>;
