import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { decidePath } from '../../domain/canonical-path';
import { HANDLER_HEADERS } from './standard-headers.middleware';

/**
 * First thing the gateway does with a request: decide on its decoded path (see decidePath). A path with
 * empty, `.` or `..` segments is answered here with the reference's 301: empty body, none of the headers
 * its handlers set (request id, version, security headers; rate-limit headers may stay). An encoded
 * slash or backslash inside a segment is 404. Otherwise the request goes on with `url` and
 * `originalUrl` set to the canonical target, which is what routing matches and what is forwarded, byte
 * for byte.
 */
export function canonicalPath() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const decision = decidePath(req.originalUrl);
    switch (decision.kind) {
      case 'forward':
        if (decision.target !== req.originalUrl) {
          req.url = decision.target;
          req.originalUrl = decision.target;
        }
        next();
        return;
      case 'redirect':
        req.resume();
        for (const name of HANDLER_HEADERS) res.removeHeader(name);
        res.statusCode = 301;
        res.setHeader('Location', decision.location);
        res.setHeader('Content-Length', '0');
        res.end();
        return;
      case 'bad-escape':
        req.resume();
        next(commonErrors.invalidUrlParam('path'));
        return;
      case 'not-found':
        req.resume();
        next(commonErrors.routeNotFound(''));
        return;
    }
  };
}
