import type { NextFunction, Request, Response } from 'express';

/**
 * What standardHeaders sets (with `X-Request-ID`): the reference's handler sets them, so an answer its
 * router gives before any handler (the 301 for dot segments) carries none of them.
 */
export const HANDLER_HEADERS: readonly string[] = ['X-Request-ID', 'X-Version-Id', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy', 'Expires'];

/**
 * The headers the reference puts on every handled request (mattermost-wire.md §0). `X-Request-ID` is set
 * by createHttpApp; `Expires: 0` only on GETs.
 */
export function standardHeaders(versionId: () => string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Version-Id', versionId());
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Permissions-Policy', '');
    if (req.method === 'GET') res.setHeader('Expires', '0');
    next();
  };
}
