import { uniqueViolation } from '@switchyard/sqlite-kit';
import { DuplicateKeyError } from '../../domain/errors';

/** A UNIQUE/PRIMARY KEY violation as the DuplicateKeyError naming the port's key; other errors unchanged. */
export function asDuplicate(error: unknown, keys: Readonly<Record<string, string>>): unknown {
  const column = uniqueViolation(error);
  if (column === undefined) return error;
  return new DuplicateKeyError(keys[column] ?? column);
}

/** Runs `write`, turning unique violations into DuplicateKeyError. */
export function mapDuplicates<T>(keys: Readonly<Record<string, string>>, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw asDuplicate(error, keys);
  }
}
