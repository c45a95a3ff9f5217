import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in the data directory that keeps the event cursors' key. */
export const CURSOR_SECRET_FILE = 'event-cursor.secret';

/**
 * The key event cursors are signed with, kept in the data directory (only its owner may read it): the
 * runtime's INTERNAL_SECRET is new at every start, and a bot's cursor must still resume after a restart.
 */
export function cursorSecret(dataDir: string): string {
  const file = join(dataDir, CURSOR_SECRET_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // none yet: made below
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
