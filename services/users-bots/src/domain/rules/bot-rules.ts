import { badRequest } from '@switchyard/errors';
import { isRestrictedUsername } from './user-rules';

/**
 * Bot usernames follow the product description (spec README decision): 3–22 characters, starting
 * with a lowercase letter, `[a-z0-9._-]`, not ending with a dot. Checked before any lower-casing, so
 * uppercase fails.
 */
const BOT_USERNAME = /^[a-z][a-z0-9._-]{1,20}[a-z0-9_-]$/;

export function assertValidBotUsername(username: unknown): asserts username is string {
  if (typeof username !== 'string' || !BOT_USERNAME.test(username) || isRestrictedUsername(username)) {
    throw badRequest(
      'model.bot.is_valid.username.app_error',
      'Invalid username: 3 to 22 characters, starting with a lowercase letter, using lowercase letters, digits, ".", "-" and "_", not ending with ".".',
    );
  }
}

const runes = (s: string): number => [...s].length;

/** The reference reports a too-long display name with the user_id id (a copy-paste bug kept for compatibility). */
export function assertValidBotDisplayName(displayName: string): void {
  if (runes(displayName) > 64) throw badRequest('model.bot.is_valid.user_id.app_error', 'Invalid display name: at most 64 characters.');
}

export function assertValidBotDescription(description: string): void {
  if (runes(description) > 1024) throw badRequest('model.bot.is_valid.description.app_error', 'Invalid description: at most 1024 characters.');
}
