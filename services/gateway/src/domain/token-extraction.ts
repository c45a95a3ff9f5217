/** Where a request's auth token was found (mattermost-wire.md §2), in priority order. */
export type TokenLocation = 'cookie' | 'header' | 'query';

export interface FoundToken {
  readonly token: string;
  readonly location: TokenLocation;
}

export interface TokenSources {
  readonly cookie?: string | undefined;
  readonly authorization?: string | undefined;
  /** The `access_token` query parameter. */
  readonly accessToken?: string | undefined;
}

export const AUTH_COOKIE = 'MMAUTHTOKEN';

/** The value of one cookie in a `Cookie` header, URL-decoded when it can be. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The reference's ParseAuthTokenFromRequest: the MMAUTHTOKEN cookie wins, then `Authorization: Bearer <t>`
 * (prefix case-insensitive, token from character 7), then `Authorization: token <t>`, then `access_token`.
 */
export function extractToken(sources: TokenSources): FoundToken | undefined {
  const cookie = readCookie(sources.cookie, AUTH_COOKIE);
  if (cookie) return { token: cookie, location: 'cookie' };
  const auth = sources.authorization;
  if (auth !== undefined) {
    if (auth.length > 6 && auth.slice(0, 6).toUpperCase() === 'BEARER') {
      const token = auth.slice(7);
      if (token !== '') return { token, location: 'header' };
    } else if (auth.length > 5 && auth.slice(0, 5).toLowerCase() === 'token') {
      const token = auth.slice(6);
      if (token !== '') return { token, location: 'header' };
    }
  }
  if (sources.accessToken) return { token: sources.accessToken, location: 'query' };
  return undefined;
}
