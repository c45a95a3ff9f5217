import type { Request, Response } from 'express';
import type { Picture } from '../../domain/pictures/picture-keys';

const DAY_SECONDS = 24 * 60 * 60;
/** A generated default may change (a renamed user): cached for five minutes, as the reference does. */
const DEFAULT_SECONDS = 5 * 60;

/**
 * An SVG is a document that could run script if opened directly: it is served with a policy that allows
 * no script, no outside fetch and no plugin, sandboxed, never sniffed as anything else.
 */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const bare = (tag: string): string => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');

function matches(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => bare(tag) === etag);
}

/**
 * Writes a picture with the reference's caching (24 h private, its ETag: the bare update time) and safe
 * headers; 304 when the client already has it.
 */
export function sendPicture(req: Request, res: Response, picture: Picture): void {
  const etag = picture.etag;
  res.setHeader('Cache-Control', `max-age=${etag ? DAY_SECONDS : DEFAULT_SECONDS}, private`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', SVG_CSP);
  if (etag) res.setHeader('ETag', etag);
  if (etag && matches(req, etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).setHeader('Content-Type', picture.contentType);
  res.setHeader('Content-Length', picture.data.length);
  res.end(req.method === 'HEAD' ? undefined : picture.data);
}
