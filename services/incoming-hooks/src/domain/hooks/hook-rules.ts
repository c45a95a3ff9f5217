import type { IncomingHook } from '../entities';
import { Errors } from '../errors';

const USERNAME = /^[a-z0-9.\-_]+$/;
const RESTRICTED_USERNAMES = new Set(['all', 'channel', 'matterbot', 'system']);

export const runes = (s: string): number => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

/** The reference's `IsValidUsername`: 1–64 characters of `[a-z0-9.-_]`, not reserved. */
export function isValidUsername(username: string): boolean {
  return username.length >= 1 && username.length <= 64 && USERNAME.test(username) && !RESTRICTED_USERNAMES.has(username);
}

/** `IncomingWebhook.IsValid` (400 model.incoming_hook.*): title 64, description 500, username 64, icon 1024 characters. */
export function assertValidHook(hook: IncomingHook): void {
  if (hook.teamId === '') throw Errors.teamId();
  if (runes(hook.displayName) > 64) throw Errors.displayName();
  if (runes(hook.description) > 500) throw Errors.description();
  if (runes(hook.username) > 64) throw Errors.username();
  if (runes(hook.iconUrl) > 1024) throw Errors.iconUrl();
}

/** A non-empty hook username must be a valid username (checked before the length rules, as the reference). */
export function assertHookUsername(username: string): void {
  if (username !== '' && !isValidUsername(username)) throw Errors.invalidUsername();
}
