/**
 * The reference's WebSocket origin rule with `AllowCorsFrom` empty (Switchyard has no CORS setting): a
 * request without `Origin` (bots, scripts) passes; a browser's `Origin` must name the same host as the
 * `Host` header, or be the origin of `SiteURL` when one is set.
 */
export function websocketOriginAllowed(origin: string | undefined, host: string | undefined, siteUrl: string): boolean {
  if (origin === undefined || origin === '') return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (host !== undefined && parsed.host.toLowerCase() === host.toLowerCase()) return true;
  if (siteUrl === '') return false;
  try {
    return new URL(siteUrl).origin === parsed.origin;
  } catch {
    return false;
  }
}
