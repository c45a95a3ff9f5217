import { AsyncResource } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { parseJsonBody } from '@switchyard/validation';

/**
 * Reads the raw request body into `req.rawBody` (a Buffer), refusing more than `limit()` bytes with
 * 413 `api.context.request_body_too_large.app_error`. The limit is read per request, so a config change
 * applies at once.
 */
export function rawBody(limit: () => number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.rawBody !== undefined) {
      next();
      return;
    }
    const max = limit();
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > max) {
      req.resume();
      next(commonErrors.bodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // Stream callbacks run outside the request's async context on a real socket; binding them keeps the
    // request id and trace context (AsyncLocalStorage) for everything that runs after the body is read.
    req.on('data', AsyncResource.bind((chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > max) {
        failed = true;
        next(commonErrors.bodyTooLarge());
        return;
      }
      chunks.push(chunk);
    }));
    req.on('end', AsyncResource.bind(() => {
      if (failed) return;
      req.rawBody = Buffer.concat(chunks);
      next();
    }));
    req.on('error', AsyncResource.bind((error: Error) => {
      if (!failed) next(error);
      failed = true;
    }));
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
