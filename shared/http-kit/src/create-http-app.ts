import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import { runWithRequestContext, type Logger } from '@switchyard/logger';
import { observeHttpRequest } from '@switchyard/metrics';
import { errorMiddleware } from './error-middleware';
import { newRequestId } from './request-id';
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
}

/** The template of the route that answered (mount path + route path), or `unmatched`. */
function routeTemplate(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (!route || typeof route.path !== 'string') return 'unmatched';
  return `${req.baseUrl}${route.path}`;
}

/** An express 5 app with request ids, request-scoped log context, health probes and the error middleware. */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = express();
  useOwnPrototypes(app);
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // Labelled by the matched route's template (`/api/v4/users/:user_id`), never the raw path.
    res.once('finish', () => {
      observeHttpRequest(options.service, routeTemplate(req), req.method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    const incoming = req.headers['x-request-id'];
    const requestId = options.trustRequestId && typeof incoming === 'string' && isValidId(incoming) ? incoming : newRequestId();
    req.requestId = requestId;
    res.setHeader('X-Request-ID', requestId);
    runWithRequestContext({ requestId }, next);
  });

  app.get('/health/live', (_req, res) => sendJson(res, 200, { status: 'OK', service: options.service }));
  app.get('/health/ready', async (_req, res) => {
    const report = await options.ready();
    sendJson(res, report.ok ? 200 : 503, { status: report.ok ? 'OK' : 'UNHEALTHY', service: options.service, checks: report.checks });
  });

  return {
    app,
    finalize: () => {
      app.use((req: Request, _res: Response, next: NextFunction) => next(commonErrors.routeNotFound(req.originalUrl)));
      app.use(errorMiddleware(options.logger, options.developerMode ?? (() => false)));
      return app;
    },
  };
}
