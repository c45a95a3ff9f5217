/**
 * What the gateway does with a request target before routing (mattermost-wire-2.md §5): it decides on
 * the decoded path and forwards exactly the path it decided on, re-encoded, so no later layer (a
 * service's router, a transport, a proxy) can resolve it to anything else.
 *
 * - `forward`: `target` is the canonical target (each segment decoded once and re-encoded, query as sent).
 * - `redirect`: the decoded path has empty, `.` or `..` segments; the reference's router answers 301 to
 *   the cleaned path (trailing slash kept, query kept) and nothing behind it sees the request.
 * - `not-found`: an encoded slash or backslash inside a segment (or a raw backslash), a target that is
 *   not a path, or an `/api/v4/...` path with a trailing slash (the reference's router does not clean one:
 *   it matches no route and falls to the catch-all; only `/api/v4/websocket/` is accepted): 404
 *   `api.context.404.app_error`.
 * - `bad-escape`: a `%` escape that does not decode (400).
 */
export type PathDecision =
  | { readonly kind: 'forward'; readonly target: string }
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-escape' };

/** A path made only of characters that stay as they are in a URL path, without any `%` escape. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** `//`, or a `.`/`..` segment. */
const NEEDS_CLEANING = /\/\/|\/\.\.?(?:\/|$)/;
/** Encoded `/` or `\` (any case), or a raw `\`. */
const SEGMENT_SEPARATOR = /%2f|%5c|\\/i;
/** Characters encodeURIComponent escapes that a path segment may carry as they are (RFC 3986 pchar). */
const PCHAR_ESCAPES = /%(?:24|26|2B|2C|3A|3B|3D|40)/g;

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(PCHAR_ESCAPES, (escape) => decodeURIComponent(escape));
}

/** gorilla/mux's cleanPath: Go's path.Clean on a rooted path, with a trailing slash put back. */
export function cleanPath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const cleaned = `/${out.join('/')}`;
  return path.endsWith('/') && cleaned !== '/' ? `${cleaned}/` : cleaned;
}

/** `/api/v4/users/me/` is no route of the reference (wire-2 §5); express would match it as `/users/me`. */
function isApiPathWithTrailingSlash(path: string): boolean {
  return path.length > 1 && path.endsWith('/') && path.startsWith('/api/v4/') && path !== '/api/v4/websocket/';
}

/** Decides what happens to a raw request target (`req.url` as the client sent it). */
export function decidePath(rawTarget: string): PathDecision {
  const q = rawTarget.indexOf('?');
  const rawPath = q >= 0 ? rawTarget.slice(0, q) : rawTarget;
  const query = q >= 0 ? rawTarget.slice(q) : '';
  if (!rawPath.startsWith('/')) return { kind: 'not-found' };
  if (PLAIN_PATH.test(rawPath) && !NEEDS_CLEANING.test(rawPath)) {
    return isApiPathWithTrailingSlash(rawPath) ? { kind: 'not-found' } : { kind: 'forward', target: rawTarget };
  }
  const decoded: string[] = [];
  for (const segment of rawPath.slice(1).split('/')) {
    if (SEGMENT_SEPARATOR.test(segment)) return { kind: 'not-found' };
    try {
      decoded.push(decodeURIComponent(segment));
    } catch {
      return { kind: 'bad-escape' };
    }
  }
  const path = `/${decoded.join('/')}`;
  const cleaned = cleanPath(path);
  const encode = (p: string): string => p.split('/').map(encodeSegment).join('/');
  if (cleaned !== path) return { kind: 'redirect', location: encode(cleaned) + query };
  if (isApiPathWithTrailingSlash(path)) return { kind: 'not-found' };
  return { kind: 'forward', target: encode(path) + query };
}
