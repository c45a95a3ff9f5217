import { defaultSystemConfig, SECRET_KEYS, SECRET_MASK, type SystemConfig } from './defaults';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges `patch` onto `base` for known keys only; arrays and scalars replace. */
function mergeKnown(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, baseValue] of Object.entries(base)) {
    if (!(key in patch)) continue;
    const patchValue = patch[key];
    out[key] = isObject(baseValue) && isObject(patchValue) ? mergeKnown(baseValue, patchValue) : patchValue;
  }
  return out;
}

/** `PUT /config/patch`: a partial document merged onto the current one. Masked secrets keep their value. */
export function applyConfigPatch(current: SystemConfig, patch: Json): SystemConfig {
  return keepMaskedSecrets(current, mergeKnown(current as unknown as Json, patch) as unknown as SystemConfig);
}

/** `PUT /config`: a full document; missing keys get their defaults (SetDefaults). Masked secrets keep their value. */
export function replaceConfig(current: SystemConfig, full: Json): SystemConfig {
  return keepMaskedSecrets(current, mergeKnown(defaultSystemConfig() as unknown as Json, full) as unknown as SystemConfig);
}

/** Fills keys a stored document lacks (after an upgrade added keys). */
export function withDefaults(stored: Json): SystemConfig {
  return mergeKnown(defaultSystemConfig() as unknown as Json, stored) as unknown as SystemConfig;
}

function keepMaskedSecrets(current: SystemConfig, next: SystemConfig): SystemConfig {
  for (const [section, key] of SECRET_KEYS) {
    const sectionValue = next[section] as unknown as Json;
    if (sectionValue[key] === SECRET_MASK) sectionValue[key] = (current[section] as unknown as Json)[key];
  }
  return next;
}

/** The config as `GET /config` shows it: secrets masked when set. */
export function sanitizeConfig(config: SystemConfig): SystemConfig {
  const copy = JSON.parse(JSON.stringify(config)) as SystemConfig;
  for (const [section, key] of SECRET_KEYS) {
    const sectionValue = copy[section] as unknown as Json;
    if (typeof sectionValue[key] === 'string' && sectionValue[key] !== '') sectionValue[key] = SECRET_MASK;
  }
  return copy;
}
