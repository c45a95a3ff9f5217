import { badRequest, type AppError } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';

/** A user preference as the reference stores it (`model.Preference`); (user_id, category, name) is its key. */
export interface Preference {
  readonly user_id: string;
  readonly category: string;
  readonly name: string;
  readonly value: string;
}

/** The collapsed-threads preference (`display_settings` / `collapsed_reply_threads`: `on` or `off`). */
export const CRT_PREFERENCE = { category: 'display_settings', name: 'collapsed_reply_threads' } as const;

const MAX_VALUE_RUNES = 20_000;
const MAX_VISIBLE_DMS_GMS = 40;

/** `Preference.IsValid` of the reference, in its order; undefined when valid. */
export function preferenceError(p: Preference): AppError | undefined {
  if (!isValidId(p.user_id)) return badRequest('model.preference.is_valid.id.app_error', 'Invalid user id.', { detailedError: `user_id=${p.user_id}` });
  if (p.category === '' || Buffer.byteLength(p.category) > 32) return badRequest('model.preference.is_valid.category.app_error', 'Category is too long.', { detailedError: `category=${p.category}` });
  if (Buffer.byteLength(p.name) > 32) return badRequest('model.preference.is_valid.name.app_error', 'Invalid name.', { detailedError: `name=${p.name}` });
  if ([...p.value].length > MAX_VALUE_RUNES) return badRequest('model.preference.is_valid.value.app_error', 'Value is too long.');
  if (p.category === 'theme' && !isStringMap(p.value)) return badRequest('model.preference.is_valid.theme.app_error', 'Invalid theme.');
  if (p.category === 'sidebar_settings' && p.name === 'limit_visible_dms_gms') {
    const n = /^[+-]?\d+$/.test(p.value) ? Number(p.value) : NaN;
    if (!(n >= 1 && n <= MAX_VISIBLE_DMS_GMS)) return badRequest('model.preference.is_valid.limit_visible_dms_gms.app_error', 'Invalid value for limit_visible_dms_gms.');
  }
  return undefined;
}

function isStringMap(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed === null) return true;
    return typeof parsed === 'object' && !Array.isArray(parsed) && Object.values(parsed as object).every((v) => typeof v === 'string');
  } catch {
    return false;
  }
}

/**
 * The reference's PreUpdate of a theme (run before IsValid): the value decoded as a string map, colours that
 * are not `#rgb`/`#rrggbb` become `#ffffff` (`image`, `type`, `codeTheme` kept), entries that are not strings
 * dropped, keys sorted as Go writes a map; a value that is no JSON object becomes `null`, as Go marshals the
 * nil map it is left with.
 */
export function normalizePreference(p: Preference): Preference {
  if (p.category !== 'theme') return p;
  let props: unknown;
  try {
    props = JSON.parse(p.value);
  } catch {
    return { ...p, value: 'null' };
  }
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return { ...p, value: 'null' };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(props as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (typeof value !== 'string') continue;
    out[name] = ['image', 'type', 'codeTheme'].includes(name) || /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(value) ? value : '#ffffff';
  }
  return { ...p, value: JSON.stringify(out) };
}
