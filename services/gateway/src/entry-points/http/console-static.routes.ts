import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compression from 'compression';
import express, { Router, type NextFunction, type Request, type Response } from 'express';

/** Hashed build output (`assets/<name>-<hash>.js`): the name changes with the content, so it may be cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and unhashed files: revalidated on every load, so a new build is picked up at once. */
const REVALIDATE = 'no-cache';

/**
 * The page's own policy: scripts and styles only from this origin (no inline script; React sets style
 * attributes, hence style-src-attr), API and WebSocket calls to this origin, pictures from anywhere (attachment
 * images and icons are third-party addresses), never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  'img-src * data: blob:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths the console never answers: the API, incoming hooks, health probes (their own 404s stay JSON AppErrors). */
function isReserved(path: string): boolean {
  return /^\/(api|hooks|health)(\/|$)/.test(path);
}

function setPageHeaders(res: Response): void {
  res.setHeader('Cache-Control', REVALIDATE);
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
}

/**
 * Serves the built web console (apps/console/dist) at `/`: files as they are, with a year of caching for
 * the hashed `assets/`, and `index.html` (no-cache) for every other GET that is not under /api, /hooks or
 * /health, so that the single-page app's own paths (`/integrations/bots`) load on refresh. A missing file
 * under `assets/` is a plain 404, not the page. When the console has not been built, `/` says how to build it.
 */
export function consoleStaticRoutes(dir: string): Router {
  const router = Router();
  const indexFile = join(dir, 'index.html');
  let built = false;
  const isBuilt = (): boolean => (built ||= existsSync(indexFile));

  const files = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders: (res, path) => {
      const hashed = path.startsWith(join(dir, 'assets'));
      res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
      if (path.endsWith('.html')) setPageHeaders(res);
    },
  });

  // gzip/brotli for the console's own files only (over 1 KiB, compressible types): the API, /hooks, the
  // WebSocket upgrade and every streamed answer never pass through here.
  const compress = compression();

  router.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isReserved(req.path)) {
      next();
      return;
    }
    compress(req, res, () => serve(req, res, next));
  });

  const serve = (req: Request, res: Response, next: NextFunction): void => {
    files(req, res, () => {
      if (req.path.startsWith('/assets/') || !isBuilt()) {
        res.status(404).type('text/plain').setHeader('Cache-Control', REVALIDATE);
        res.send(isBuilt() ? 'Not found\n' : 'The web console is not built: run `npm run build` (or `npm start`) in the Switchyard checkout.\n');
        return;
      }
      setPageHeaders(res);
      res.sendFile(indexFile, { headers: { 'Content-Type': 'text/html; charset=utf-8' }, cacheControl: false, lastModified: false, etag: false }, (error?: Error) => {
        if (error) next(error);
      });
    });
  };
  return router;
}
