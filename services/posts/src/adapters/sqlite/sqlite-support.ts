import { uniqueViolation } from '@switchyard/sqlite-kit';
import { DuplicateKeyError } from '../../domain/errors';

/** Runs `write`, turning UNIQUE/PRIMARY KEY violations into the DuplicateKeyError naming the port's key. */
export function mapDuplicates<T>(keys: Readonly<Record<string, string>>, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const column = uniqueViolation(error);
    if (column === undefined) throw error;
    throw new DuplicateKeyError(keys[column] ?? column);
  }
}
