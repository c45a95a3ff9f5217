/** Helpers for tables that keep each entity as a JSON document (`doc`) beside the columns queries use. */

export interface DocRow {
  readonly doc: string;
}

export function fromDoc<T>(row: DocRow | undefined): T | undefined {
  return row === undefined ? undefined : (JSON.parse(row.doc) as T);
}

export function fromDocs<T>(rows: readonly DocRow[]): T[] {
  return rows.map((row) => JSON.parse(row.doc) as T);
}

/**
 * Documents in the order of `keys` (repeats repeated, each a separate copy; missing keys skipped).
 * `rows` carry the key in `k`.
 */
export function inKeyOrder<T>(keys: readonly string[], rows: readonly (DocRow & { readonly k: string })[]): T[] {
  const byKey = new Map(rows.map((row) => [row.k, row.doc]));
  return keys.flatMap((key) => {
    const doc = byKey.get(key);
    return doc === undefined ? [] : [JSON.parse(doc) as T];
  });
}

/** A JSON array parameter for `IN (SELECT value FROM json_each(?))`: one prepared statement for any list. */
export function jsonList(values: readonly string[]): string {
  return JSON.stringify(values);
}

/** LIMIT/OFFSET of a page; undefined for an empty page (per_page 0 or less). */
export function pageWindow(page: { readonly page: number; readonly perPage: number }): { limit: number; offset: number } | undefined {
  if (page.perPage <= 0 || page.page < 0) return undefined;
  return { limit: page.perPage, offset: page.page * page.perPage };
}

/** `changes` without undefined values and without the keys an update may not touch. */
export function definedChanges<T extends object>(changes: T, immutable: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  // Keys, not entries: no [key, value] pair per field (a write path's garbage).
  for (const key of Object.keys(changes)) {
    const value = (changes as Record<string, unknown>)[key];
    if (value !== undefined && !immutable.includes(key)) out[key] = value;
  }
  return out as Partial<T>;
}

/** SQLite booleans are integers. */
export const bool = (value: boolean): number => (value ? 1 : 0);

export type { Statement as SqliteStatement } from 'better-sqlite3';
