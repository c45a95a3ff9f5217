/** Why a data directory could not be opened. Every message is one line meant for an operator. */
export type StoreOpenFailure = 'in_use' | 'unwritable' | 'corrupt' | 'schema_too_new' | 'not_a_store';

export class StoreOpenError extends Error {
  public constructor(
    public readonly reason: StoreOpenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'StoreOpenError';
  }
}

export function isStoreOpenError(error: unknown): error is StoreOpenError {
  return error instanceof Error && error.name === 'StoreOpenError' && 'reason' in error;
}

/** SQLite's result code of a better-sqlite3 error (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, ...), if any. */
export function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * The column a UNIQUE or PRIMARY KEY violation names (`UNIQUE constraint failed: users.username` →
 * `username`; several columns → joined with `,`), undefined for any other error.
 */
export function uniqueViolation(error: unknown): string | undefined {
  const code = sqliteCode(error);
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
  const match = /constraint failed: (.+)$/.exec((error as Error).message);
  if (!match?.[1]) return '';
  return match[1]
    .split(',')
    .map((part) => part.trim().split('.').pop() ?? '')
    .join(',');
}
