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
  readonly token: string | undefined;
  readonly clientIp: string;
  /** Value of the `VaryByHeader` header, when that setting names one. */
  readonly headerValue: string | undefined;
}

/**
 * The reference's key: the auth token when VaryByUser and a token is present, otherwise the client
 * address when VaryByRemoteAddr; plus the lower-cased VaryByHeader value. Tokens are hashed.
 */
export function rateLimitKey(settings: RateLimitSettings, input: RateKeyInput): string {
  let key = '';
  if (settings.VaryByUser && input.token) key = `t:${hashToken(input.token)}`;
  else if (settings.VaryByRemoteAddr) key = `ip:${input.clientIp}`;
  if (settings.VaryByHeader !== '') key += `|h:${(input.headerValue ?? '').toLowerCase()}`;
  return key;
}
