import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { newLocals } from './response-locals';

/**
 * Runs `chain` on one request as the app's router would run those middlewares, without its layer walk
 * (path matching and prefix trimming per layer, for every request): for a caller that already knows
 * which middlewares the router would pick. What express does before its router is done here too
 * (request/response prototypes, `req.res`/`res.req`, `res.locals`, `originalUrl`, `baseUrl`). A middleware
 * that throws or whose promise rejects goes, like one calling `next(error)`, to `onError`; a chain that
 * runs out calls `onEnd(next)`. Unlike the router, nothing below trims a mount path from `req.url`.
 */
export function runChain(
  app: Express,
  req: IncomingMessage,
  res: ServerResponse,
  chain: readonly RequestHandler[],
  onError: ErrorRequestHandler,
  onEnd: RequestHandler,
): void {
  const request = req as Request;
  const response = res as Response;
  request.res = response;
  response.req = request;
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  response.locals ??= newLocals() as Response['locals'];
  request.baseUrl = '';
  request.originalUrl ||= req.url ?? '';
  let index = 0;
  let failed = false;
  const fail = (error: unknown): void => {
    if (failed) return;
    failed = true;
    invoke(() => onError(error, request, response, finish), finish);
  };
  const next: NextFunction = (error?: unknown): void => {
    if (failed) return;
    if (error !== undefined && error !== null && error !== 'route' && error !== 'router') {
      fail(error);
      return;
    }
    const handler = chain[index];
    index += 1;
    invoke(() => (handler ?? onEnd)(request, response, next), fail);
  };
  /** After the error middleware: only if it gave up (it answers every error itself). */
  function finish(): void {
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
  next();
}

function invoke(run: () => unknown, fail: (error: unknown) => void): void {
  try {
    const result = run();
    if (result instanceof Promise) result.then(undefined, (error: unknown) => fail(error ?? new Error('Rejected promise')));
  } catch (error) {
    fail(error);
  }
}
