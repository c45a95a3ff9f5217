import type { SystemConfig } from '@switchyard/system-config';
import { hashToken } from './session-resolver';
import type { RatePolicy } from './ports';

type RateLimitSettings = SystemConfig['RateLimitSettings'];

/** The policy when rate limiting is on and sane, otherwise undefined. */
export function ratePolicy(settings: RateLimitSettings): RatePolicy | undefined {
  if (!settings.Enable || !(settings.PerSec > 0)) return undefined;
  return {
    perSec: settings.PerSec,
    maxBurst: Math.max(0, Math.floor(settings.MaxBurst)),
    maxKeys: Math.max(1, Math.floor(settings.MemoryStoreSize)),
  };
}

export interface RateKeyInput {
  /** The request's token, only when it resolved to a session (an invented or expired one is undefined). */
  readonly validToken: string | undefined;
  readonly clientIp: string;
  /** Value of the `VaryByHeader` header, when that setting names one. */
  readonly headerValue: string | undefined;
}

/**
 * The reference's key: the auth token when VaryByUser and the request carries a *valid* one, otherwise
 * the client address (when VaryByRemoteAddr, and always under VaryByUser: an absent, made-up or expired
 * token must not get a bucket of its own, or each invented token would be a fresh allowance); plus the
 * lower-cased VaryByHeader value. Tokens are hashed.
 */
export function rateLimitKey(settings: RateLimitSettings, input: RateKeyInput): string {
  let key = '';
  if (settings.VaryByUser && input.validToken) key = `t:${hashToken(input.validToken)}`;
  else if (settings.VaryByRemoteAddr || settings.VaryByUser) key = `ip:${input.clientIp}`;
  if (settings.VaryByHeader !== '') key += `|h:${(input.headerValue ?? '').toLowerCase()}`;
  return key;
}
