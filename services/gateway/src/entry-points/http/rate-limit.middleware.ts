import type { NextFunction, Request, Response } from 'express';
import type { ResolvedSession } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { requestLogger } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { ConfigView } from '@switchyard/system-config';
import type { RateLimiter } from '../../domain/ports';
import { rateLimitKey, ratePolicy } from '../../domain/rate-limit-policy';
import { clientIp, requestToken, resolveOnce } from './gateway-locals';

export interface RateLimitDeps {
  readonly limiter: RateLimiter;
  /** A token's session, if any (VaryByUser keys only valid tokens by token; a failure counts as none). */
  readonly resolve: (token: string, log: Logger) => Promise<ResolvedSession | undefined>;
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
    const token = settings.VaryByUser ? requestToken(req, res)?.token : undefined;
    const valid = token !== undefined && (await resolveOnce(res, token, (t) => deps.resolve(t, requestLogger(deps.logger, req))).catch(() => undefined)) !== undefined;
    const key = rateLimitKey(settings, {
      validToken: valid ? token : undefined,
      clientIp: clientIp(req),
      headerValue: settings.VaryByHeader === '' ? undefined : req.get(settings.VaryByHeader),
    });
    let decision;
    try {
      decision = await deps.limiter.consume(key, policy);
    } catch (error) {
      deps.logger.warn('rate limiter unavailable, request let through', { request_id: req.requestId, error });
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
