import { timingSafeEqual } from 'node:crypto';

/**
 * The internal secret(s) in force, for a rotation without an outage: everything is signed with
 * `primary`; a signature made with `primary` or `secondary` is accepted. Rotating A → B takes three
 * rollouts, each compatible with the one before (docs/operations.md, "Rotating INTERNAL_SECRET"):
 * {A, +B} → {B, +A} → {B}.
 */
export interface KeySet {
  readonly primary: string;
  readonly secondary?: string;
}

/** What the signers and verifiers take: a bare string is a key set of one key. */
export type Keys = string | KeySet;

/** A key set; an empty or repeated secondary is dropped. */
export function keySet(primary: string, secondary?: string): KeySet {
  if (primary === '') throw new Error('key set: the primary key is empty');
  return secondary === undefined || secondary === '' || secondary === primary ? { primary } : { primary, secondary };
}

/** The key set of a service's env: INTERNAL_SECRET, plus INTERNAL_SECRET_SECONDARY during a rotation. */
export function internalKeys(env: { readonly INTERNAL_SECRET: string; readonly INTERNAL_SECRET_SECONDARY?: string | undefined }): KeySet {
  return keySet(env.INTERNAL_SECRET, env.INTERNAL_SECRET_SECONDARY);
}

/** The key to sign with. */
export function signingKey(keys: Keys): string {
  return typeof keys === 'string' ? keys : keys.primary;
}

/** The keys a signature may have been made with, primary first. */
export function acceptedKeys(keys: Keys): readonly string[] {
  if (typeof keys === 'string') return [keys];
  return keys.secondary === undefined ? [keys.primary] : [keys.primary, keys.secondary];
}

/** Whether `given` is `expected(key)` for one of the accepted keys (each comparison in constant time). */
export function matchesAnyKey(keys: Keys, given: string, expected: (key: string) => string): boolean {
  const actual = Buffer.from(given);
  let matched = false;
  for (const key of acceptedKeys(keys)) {
    const wanted = Buffer.from(expected(key));
    if (wanted.length === actual.length && timingSafeEqual(wanted, actual)) matched = true;
  }
  return matched;
}
