import type { TokenLocation } from './token-extraction';

export interface CsrfInput {
  readonly method: string;
  readonly location: TokenLocation;
  /** The session's CSRF value. */
  readonly sessionCsrf: string;
  readonly csrfHeader: string | undefined;
  readonly requestedWith: string | undefined;
  /** `ServiceSettings.ExperimentalStrictCSRFEnforcement` */
  readonly strict: boolean;
}

/**
 * The reference's checkCSRFToken: only cookie-authenticated non-GET requests are checked. They pass with
 * `X-CSRF-Token` equal to the session's value, or (unless strict) with `X-Requested-With: XMLHttpRequest`.
 */
export function csrfPasses(input: CsrfInput): boolean {
  if (input.location !== 'cookie' || input.method === 'GET') return true;
  if (input.sessionCsrf !== '' && input.csrfHeader === input.sessionCsrf) return true;
  return !input.strict && input.requestedWith === 'XMLHttpRequest';
}
