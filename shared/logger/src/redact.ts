import { maskSecrets } from './mask-secrets';

/** Keys whose values are never written to a log line. */
const SECRET_KEY = /(pass(word)?|secret|token|authorization|cookie|api[-_]?key|hook[-_]?key|^key$|signature|credential)/i;
export const REDACTED = '[redacted]';

/**
 * Returns a copy of `value` with secret-looking keys replaced and secrets inside strings masked (hook
 * keys in paths, query tokens, bearer credentials, signing secrets; see maskSecrets), to a bounded depth.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: maskSecrets(value.message), stack: value.stack === undefined ? undefined : maskSecrets(value.stack) };
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(item, depth + 1);
  }
  return out;
}
