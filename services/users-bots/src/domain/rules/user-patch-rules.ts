import { badRequest } from '@switchyard/errors';
import { DEFAULT_NOTIFY_PROPS, type User } from '../entities';
import { assertValidProfile } from './user-rules';

/** The reference's UserTimezoneMaxRunes: the timezone map, as JSON, at most this many characters. */
const TIMEZONE_MAX_RUNES = 256;
/** The props key of a custom status (UserPropsKeyCustomStatus): when set and not empty, a JSON object. */
const CUSTOM_STATUS = 'customStatus';

/**
 * Notify props as the reference's PreUpdate stores a patched map: an empty map is the defaults; `mention_keys` loses its
 * empty keys (split at commas, not trimmed) and is lower-cased.
 */
export function patchedNotifyProps(props: Readonly<Record<string, string>>): Record<string, string> {
  if (Object.keys(props).length === 0) return { ...DEFAULT_NOTIFY_PROPS };
  const out = { ...props };
  const keys = out.mention_keys;
  if (keys !== undefined) {
    out.mention_keys = keys
      .split(',')
      .filter((key) => key !== '')
      .map((key) => key.toLowerCase())
      .join(',');
  }
  return out;
}

/** IsValidLocale: empty, or at most 5 characters that form a language tag. */
function isValidLocale(locale: string): boolean {
  if (locale === '') return true;
  if (locale.length > 5) return false;
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

/** A custom status prop, when set, must read as a JSON object (GetCustomStatus answers nil otherwise). */
function isValidCustomStatus(props: Readonly<Record<string, string>>): boolean {
  const status = props[CUSTOM_STATUS];
  if (status === undefined || status === '') return true;
  try {
    const parsed: unknown = JSON.parse(status);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

const invalid = (field: string, message: string) => badRequest(`model.user.is_valid.${field}.app_error`, message);

/**
 * The rest of the reference's User.IsValid for a patched user, in its order (username and email checked before):
 * nickname, position, first and last name, locale, timezone size, custom status.
 */
export function assertValidPatchedProfile(user: Pick<User, 'nickname' | 'position' | 'firstName' | 'lastName' | 'locale' | 'timezone' | 'props'>): void {
  assertValidProfile({ nickname: user.nickname });
  assertValidProfile({ position: user.position });
  assertValidProfile({ firstName: user.firstName, lastName: user.lastName });
  if (!isValidLocale(user.locale)) throw invalid('locale', 'Invalid locale.');
  if (user.timezone !== null && Object.keys(user.timezone).length > 0 && [...JSON.stringify(user.timezone)].length > TIMEZONE_MAX_RUNES) {
    throw invalid('timezone_limit', `Invalid timezone: must not be longer than ${TIMEZONE_MAX_RUNES} characters.`);
  }
  if (!isValidCustomStatus(user.props)) throw badRequest('model.user.is_valid.invalidProperty.app_error', 'Invalid props.');
}

/**
 * The reference's UpdateMentionKeysFromUsername after a rename: the mention keys but the old username (bare or with `@`),
 * written after a leading comma as the reference writes them; '' when none is left.
 */
export function mentionKeysAfterRename(props: Readonly<Record<string, string>>, oldUsername: string): string {
  const kept = (props.mention_keys ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '' && key !== oldUsername && key !== `@${oldUsername}`);
  return kept.length > 0 ? `,${kept.join(',')}` : '';
}
