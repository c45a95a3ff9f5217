import { AsyncResource } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { parseJsonBody } from '@switchyard/validation';
import { IN_PROCESS_BODY } from './in-process-dispatch';

const EMPTY = Buffer.alloc(0);

/** A request that, by its headers, has no body (HTTP/1.1: neither Content-Length nor Transfer-Encoding). */
function declaresNoBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/**
 * Reads the raw request body into `req.rawBody` (a Buffer), refusing more than `limit(req)` bytes with
 * 413 `api.context.request_body_too_large.app_error` (or what `tooLarge(req)` answers, for routes with
 * their own id). The limit is read per request, so a config change applies at once. A request dispatched
 * in process hands its body over without a stream, and a request whose headers declare no body goes on
 * at once with an empty one.
 */
export function rawBody(limit: (req: Request) => number, tooLarge: (req: Request) => Error = () => commonErrors.bodyTooLarge()) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.rawBody !== undefined) {
      next();
      return;
    }
    const max = limit(req);
    const handed = (req as Request & { [IN_PROCESS_BODY]?: Buffer })[IN_PROCESS_BODY];
    if (handed !== undefined) {
      if (handed.length > max) {
        next(tooLarge(req));
        return;
      }
      req.rawBody = handed;
      next();
      return;
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > max) {
      req.resume();
      next(tooLarge(req));
      return;
    }
    if (declaresNoBody(req)) {
      req.rawBody = EMPTY;
      next();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // Stream callbacks run outside the request's async context on a real socket; running them in the
    // request's resource keeps the trace context (OpenTelemetry's AsyncLocalStorage, tracing on) for
    // everything that runs after the body is read. One resource per request (AsyncResource.bind makes one per callback).
    const scope = new AsyncResource('switchyard.rawBody');
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > max) {
        failed = true;
        scope.runInAsyncScope(next, undefined, tooLarge(req));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      req.rawBody = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      scope.runInAsyncScope(next);
    });
    req.on('error', (error: Error) => {
      if (!failed) scope.runInAsyncScope(next, undefined, error);
      failed = true;
    });
  };
}

/** Parses `req.rawBody` as JSON into `req.body` (undefined when empty); 400 on bad JSON or `__proto__`. */
export function jsonBody(req: Request, _res: Response, next: NextFunction): void {
  try {
    req.body = req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
    next();
  } catch (error) {
    next(error);
  }
}
