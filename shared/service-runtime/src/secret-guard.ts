/** Minimum length of INTERNAL_SECRET (and INTERNAL_SECRET_SECONDARY) when NODE_ENV=production: 32 chars ≈ `openssl rand -base64 24`. */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

/** Values that are clearly not a real secret: the placeholders of the manifests and docs, or one repeated character. */
const PLACEHOLDER = /change[_-]?me|placeholder|not[_-]for[_-]production|local[_-]dev[_-]only|replace[_-]?me|^(.)\1*$/i;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** The password inside a URL (`scheme://user:password@host`), if any. */
function urlPassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

/**
 * In production (NODE_ENV=production) a service refuses to start with a placeholder or a short secret:
 * following the manifests literally must not run with `CHANGE_ME`. Names the keys, never the values.
 */
export function productionSecretProblems(env: Readonly<Record<string, string | undefined>>): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  for (const key of ['INTERNAL_SECRET', 'INTERNAL_SECRET_SECONDARY'] as const) {
    const value = env[key];
    if (value === undefined || value === '') {
      if (key === 'INTERNAL_SECRET') problems.push(`${key}: required in production`);
      continue;
    }
    if (isPlaceholder(value)) problems.push(`${key}: is a placeholder; generate one: openssl rand -base64 32`);
    else if (value.length < MIN_PRODUCTION_SECRET_LENGTH) problems.push(`${key}: must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production (has ${value.length})`);
  }
  const sasl = env.KAFKA_SASL_PASSWORD;
  if (sasl !== undefined && sasl !== '' && isPlaceholder(sasl)) problems.push('KAFKA_SASL_PASSWORD: is a placeholder');
  for (const key of ['MONGO_URL', 'REDIS_URL'] as const) {
    const url = env[key];
    const password = url ? urlPassword(url) : undefined;
    if (password !== undefined && isPlaceholder(password)) problems.push(`${key}: its password is a placeholder`);
  }
  return problems;
}
