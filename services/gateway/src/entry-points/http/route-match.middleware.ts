import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { setRouteTemplate } from '@switchyard/http-kit';
import type { RouteMatcher } from '../../domain/route-matcher';
import { gatewayLocals } from './gateway-locals';

/**
 * Finds the owning service; unknown routes and services not running here are 404 api.context.404.app_error.
 * A matched request is counted in the request metric under its route table pattern (a forwarded request
 * has no express route of its own, so it was `unmatched`).
 */
export function routeMatch(matcher: RouteMatcher, registered: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const route = matcher.match(req.method, req.originalUrl);
    if (!route || !registered.has(route.service)) {
      req.resume();
      next(commonErrors.routeNotFound(req.originalUrl));
      return;
    }
    gatewayLocals(res).route = route;
    setRouteTemplate(req, route.pattern);
    next();
  };
}
