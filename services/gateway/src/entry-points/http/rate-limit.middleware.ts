import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import type { Logger } from '@switchyard/logger';
import type { ConfigView } from '@switchyard/system-config';
import type { RateLimiter } from '../../domain/ports';
import { rateLimitKey, ratePolicy } from '../../domain/rate-limit-policy';
import { clientIp, requestToken } from './gateway-locals';

export interface RateLimitDeps {
  readonly limiter: RateLimiter;
  readonly config: ConfigView;
  readonly logger: Logger;
}

/**
 * `RateLimitSettings` read per request (so changes apply at once). When on, every response carries
 * X-RateLimit-Limit/Remaining/Reset; over the limit: 429 JSON `api.context.rate_limit.app_error` with
 * Retry-After. A failing limiter store lets requests through rather than taking the API down.
 */
export function rateLimit(deps: RateLimitDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const settings = deps.config.current().RateLimitSettings;
    const policy = ratePolicy(settings);
    if (!policy) {
      next();
      return;
    }
    const key = rateLimitKey(settings, {
      token: requestToken(req, res)?.token,
      clientIp: clientIp(req),
      headerValue: settings.VaryByHeader === '' ? undefined : req.get(settings.VaryByHeader),
    });
    let decision;
    try {
      decision = await deps.limiter.consume(key, policy);
    } catch (error) {
      deps.logger.warn('rate limiter unavailable, request let through', { error });
      next();
      return;
    }
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) throw commonErrors.rateLimited({ 'Retry-After': String(decision.retryAfterSeconds) });
    next();
  };
}
