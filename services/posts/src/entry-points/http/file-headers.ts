import type { FileInfo } from '../../domain/files/file-info';

/** Types served `inline` (mattermost-wire-3.md §1.4); everything else is `attachment`. SVG never is. */
const INLINE_PREFIXES = ['image/jpeg', 'image/png', 'image/bmp', 'image/gif', 'image/tiff', 'image/webp', 'video/avi', 'video/mpeg', 'video/mp4', 'audio/mpeg', 'audio/wav'];
/** Types a browser would run: served as text/plain. */
const SCRIPT_PREFIXES = ['application/javascript', 'application/ecmascript', 'text/javascript', 'text/ecmascript', 'application/x-javascript', 'text/html'];

const KEPT = new Set(['$', '&', '+', ':', '=', '@']);

/** Go's url.PathEscape: unreserved characters and `$&+:=@` stay, everything else is %XX (UTF-8). */
export function pathEscape(name: string): string {
  return encodeURIComponent(name)
    .replace(/%(24|26|2B|3A|3D|40)/g, (m) => {
      const c = String.fromCharCode(parseInt(m.slice(1), 16));
      return KEPT.has(c) ? c : m;
    })
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function servedContentType(mimeType: string): string {
  if (mimeType === '') return 'application/octet-stream';
  if (SCRIPT_PREFIXES.some((p) => mimeType.startsWith(p))) return 'text/plain';
  return mimeType;
}

/** The headers the reference sends with file bytes. `forceDownload`: `?download=true`. */
export function fileHeaders(info: FileInfo, contentType: string, forceDownload: boolean): Record<string, string> {
  const inline = !forceDownload && INLINE_PREFIXES.some((p) => contentType.startsWith(p));
  const escaped = pathEscape(info.name);
  return {
    'Content-Type': contentType,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'};filename="${escaped}"; filename*=UTF-8''${escaped}`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': 'Frame-ancestors \'none\'',
    'Cache-Control': 'private, max-age=86400',
    'Last-Modified': new Date(info.update_at).toUTCString(),
  };
}
