import { badRequest } from '@switchyard/errors';
import type { SystemConfig } from '@switchyard/system-config';

const USERNAME = /^[a-z0-9.\-_]+$/;
const RESTRICTED_USERNAMES = new Set(['all', 'channel', 'matterbot', 'system']);
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/;
export const PASSWORD_MAXIMUM_BYTES = 72;

const invalid = (field: string, message: string) => badRequest(`model.user.is_valid.${field}.app_error`, message);

/** `IsValidUsername` for humans (called after lower-casing): 1–64 bytes, `[a-z0-9.-_]`, not reserved. */
export function assertValidUsername(username: string): void {
  const bytes = Buffer.byteLength(username);
  if (bytes < 1 || bytes > 64 || !USERNAME.test(username) || RESTRICTED_USERNAMES.has(username)) {
    throw invalid('username', 'Username must begin with a letter, and contain between 3 to 22 lowercase characters made up of numbers, letters, and the symbols ".", "-", and "_".');
  }
}

export function isRestrictedUsername(username: string): boolean {
  return RESTRICTED_USERNAMES.has(username);
}

export function isValidEmail(email: string): boolean {
  return email.length > 0 && email.length <= 128 && EMAIL.test(email);
}

/** Lower-cased, parseable as a bare address, at most 128 characters. */
export function assertValidEmail(email: string): void {
  if (email.length === 0 || email.length > 128 || !EMAIL.test(email)) throw invalid('email', 'Invalid email.');
}

export interface ProfileFields {
  readonly nickname?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly position?: string;
  readonly locale?: string;
}

const runes = (s: string): number => [...s].length;

/** Nickname, first and last name 64 runes; position 128; locale 5. */
export function assertValidProfile(fields: ProfileFields): void {
  if (fields.nickname !== undefined && runes(fields.nickname) > 64) throw invalid('nickname', 'Invalid nickname.');
  if (fields.firstName !== undefined && runes(fields.firstName) > 64) throw invalid('first_name', 'Invalid first name.');
  if (fields.lastName !== undefined && runes(fields.lastName) > 64) throw invalid('last_name', 'Invalid last name.');
  if (fields.position !== undefined && runes(fields.position) > 128) throw invalid('position', 'Invalid position: must not be longer than 128 characters.');
  if (fields.locale !== undefined && fields.locale.length > 5) throw invalid('locale', 'Invalid locale.');
}

/**
 * `IsPasswordValidWithSettings`: the id is `model.user.is_valid.pwd` plus one suffix per required
 * character class (`_lowercase`, `_uppercase`, `_number`, `_symbol`), then `.app_error`. Skipped when
 * EnableDeveloper is on, except that a password is never empty nor over 72 bytes.
 */
export function assertValidPassword(password: string, config: Readonly<SystemConfig>): void {
  const settings = config.PasswordSettings;
  const bytes = Buffer.byteLength(password);
  if (config.ServiceSettings.EnableDeveloper && bytes > 0 && bytes <= PASSWORD_MAXIMUM_BYTES) return;
  let id = 'model.user.is_valid.pwd';
  let failed = bytes < settings.MinimumLength || bytes > PASSWORD_MAXIMUM_BYTES || bytes === 0;
  const classes: ReadonlyArray<readonly [boolean, string, RegExp]> = [
    [settings.Lowercase, '_lowercase', /[a-z]/],
    [settings.Uppercase, '_uppercase', /[A-Z]/],
    [settings.Number, '_number', /[0-9]/],
    [settings.Symbol, '_symbol', /[ !"\\#$%&'()*+,\-./:;<=>?@[\]^_`|~]/],
  ];
  for (const [required, suffix, pattern] of classes) {
    if (!required) continue;
    id += suffix;
    if (!pattern.test(password)) failed = true;
  }
  if (failed) {
    throw badRequest(`${id}.app_error`, `Your password must contain at least ${settings.MinimumLength} characters.`, {
      detailedError: `min=${settings.MinimumLength}`,
    });
  }
}
