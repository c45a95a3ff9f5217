import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import type { Logger } from '@switchyard/logger';
import { observeHttpRequest } from '@switchyard/metrics';
import { errorMiddleware } from './error-middleware';
import { newRequestId } from './request-id';
import { runChain } from './run-chain';
import { sendJson } from './send-json';
import { useOwnPrototypes } from './own-prototypes';

export interface HealthReport {
  readonly ok: boolean;
  readonly checks: Readonly<Record<string, boolean>>;
}

export interface HttpAppOptions {
  readonly service: string;
  readonly logger: Logger;
  readonly ready: () => Promise<HealthReport>;
  readonly developerMode?: () => boolean;
  /** Trust an incoming `X-Request-ID` (true behind the gateway); the gateway itself makes new ones. */
  readonly trustRequestId?: boolean;
}

export interface HttpApp {
  readonly app: Express;
  /** Adds the 404 and error handlers; call after every route is mounted. */
  finalize(): Express;
  /**
   * Requests for which `straight(req)` holds run `chain` as the app would (after this app's own first
   * middleware: request id, metrics; errors and a chain that runs out end as in the app:
   * error middleware, 404), without the router's walk; the rest go through the router. For an app that
   * knows the router would run exactly these middlewares for those requests (see runChain). The app stays
   * the listener (`app(req, res)`), for sockets and in-process injection alike; not for a mounted app.
   */
  shortcut(straight: (req: IncomingMessage) => boolean, chain: readonly RequestHandler[]): void;
}

const ROUTE_TEMPLATE = Symbol('route template');
/** When the app took the request (`process.hrtime.bigint()`), for the request metric's duration. */
const STARTED = Symbol('request started');
type StartedRequest = Request & { [STARTED]?: bigint };

/**
 * Names the route a request took, for the request metric's `route` label, when no express route answers
 * it (a catch-all such as the gateway's forward path). A bounded template (`/api/v4/users/**`), never the raw path.
 */
export function setRouteTemplate(req: IncomingMessage, template: string): void {
  (req as IncomingMessage & { [ROUTE_TEMPLATE]?: string })[ROUTE_TEMPLATE] = template;
}

/** The template set by `setRouteTemplate`, else of the express route that answered (mount path + route path), else `unmatched`. */
function routeTemplate(req: Request): string {
  const named = (req as Request & { [ROUTE_TEMPLATE]?: string })[ROUTE_TEMPLATE];
  if (named !== undefined) return named;
  const route = req.route as { path?: unknown } | undefined;
  if (!route || typeof route.path !== 'string') return 'unmatched';
  return `${req.baseUrl}${route.path}`;
}

/** An express 5 app with request ids (`req.requestId`, for log lines: ADR 0042), health probes and the error middleware. */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = express();
  useOwnPrototypes(app);
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  // Labelled by the matched route's template (`/api/v4/users/:user_id`), never the raw path. One listener for
  // every response of the app, its start kept on the request: an open request (long-polls wait by thousands)
  // keeps no closure or `once` wrapper of its own for it.
  function observeFinish(this: Response): void {
    const req = this.req as StartedRequest;
    observeHttpRequest(options.service, routeTemplate(req), req.method, this.statusCode, Number(process.hrtime.bigint() - (req[STARTED] ?? 0n)) / 1e9);
  }
  const begin = (req: Request, res: Response, next: NextFunction): void => {
    (req as StartedRequest)[STARTED] = process.hrtime.bigint();
    res.on('finish', observeFinish);
    const incoming = req.headers['x-request-id'];
    const requestId = options.trustRequestId && typeof incoming === 'string' && isValidId(incoming) ? incoming : newRequestId();
    req.requestId = requestId;
    res.setHeader('X-Request-ID', requestId);
    next();
  };
  app.use(begin);

  app.get('/health/live', (_req, res) => sendJson(res, 200, { status: 'OK', service: options.service }));
  app.get('/health/ready', async (_req, res) => {
    const report = await options.ready();
    sendJson(res, report.ok ? 200 : 503, { status: report.ok ? 'OK' : 'UNHEALTHY', service: options.service, checks: report.checks });
  });

  const notFound = (req: Request, _res: Response, next: NextFunction): void => next(commonErrors.routeNotFound(req.originalUrl));
  const onError = errorMiddleware(options.logger, options.developerMode ?? (() => false));
  return {
    app,
    finalize: () => {
      app.use(notFound);
      app.use(onError);
      return app;
    },
    shortcut: (straight, chain) => {
      const all = [begin, ...chain];
      const handle = app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, callback?: unknown) => void };
      const viaRouter = handle.handle.bind(app);
      // express's app function calls app.handle(req, res, next) for every request.
      handle.handle = (req, res, callback) => {
        if (straight(req)) runChain(app, req, res, all, onError, notFound);
        else viaRouter(req, res, callback);
      };
    },
  };
}
