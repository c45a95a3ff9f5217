import { API_BASE } from '../../api/client';
import type { FileInfo } from '../../api/types';

/** The reference's per-post file count (file_ids of at most 300 runes = 10 ids). */
export const MAX_FILES_PER_POST = 10;

/** A file's bytes, its thumbnail or its preview (the session cookie authorises them). */
export function fileUrl(id: string, kind: 'file' | 'thumbnail' | 'preview' | 'download' = 'file'): string {
  const base = `${API_BASE}/files/${encodeURIComponent(id)}`;
  if (kind === 'thumbnail' || kind === 'preview') return `${base}/${kind}`;
  return kind === 'download' ? `${base}?download=1` : base;
}

/**
 * Shown inline only when the server made a preview (decodable still images); SVG, animated GIF and every other
 * type are download links, so nothing the server did not re-encode is drawn in the page.
 */
export function showsInline(info: Pick<FileInfo, 'has_preview_image' | 'mime_type'>): boolean {
  return info.has_preview_image === true && info.mime_type.startsWith('image/') && !info.mime_type.includes('svg');
}

/** Bytes in words: 512 B, 1.5 KB, 3.2 MB (1024-based, as the reference's web app). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The files a post shows: its `metadata.files` (the server's own list; nothing when absent). */
export function filesOf(post: { readonly metadata?: { readonly files?: readonly FileInfo[] } }): readonly FileInfo[] {
  const files = post.metadata?.files;
  return Array.isArray(files) ? files : [];
}
