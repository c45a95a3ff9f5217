import type { NextFunction, Request, Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { loggablePath, requestLogger } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { ConfigView } from '@switchyard/system-config';
import { csrfPasses } from '../../domain/csrf';
import type { SessionResolver } from '../../domain/session-resolver';
import { gatewayLocals, requestToken, resolveOnce } from './gateway-locals';

export interface AuthenticateDeps {
  readonly resolver: SessionResolver;
  readonly config: ConfigView;
  readonly logger: Logger;
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Resolves the request's token to an identity (mattermost-wire.md §2). A request without a valid token,
 * or failing the CSRF rule, goes on without identity, so the service answers 401 where a session is
 * required. A valid token in `access_token` is refused (only OAuth sessions may use it; there are none).
 */
export function authenticate(deps: AuthenticateDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const locals = gatewayLocals(res);
    const found = requestToken(req, res);
    if (!found) {
      next();
      return;
    }
    let session;
    try {
      session = await resolveOnce(res, found.token, (token) => deps.resolver.resolve(token, requestLogger(deps.logger, req)));
    } catch (error) {
      if (locals.route?.sessionOptional) {
        deps.logger.warn('token not checked (users-bots unavailable); forwarded without identity', { request_id: req.requestId, error });
        next();
        return;
      }
      deps.logger.warn('token not checked (users-bots unavailable)', { request_id: req.requestId, error });
      throw commonErrors.serverBusy();
    }
    if (!session) {
      next();
      return;
    }
    if (found.location === 'query') throw commonErrors.tokenProvided();
    const csrfOk = csrfPasses({
      method: req.method,
      location: found.location,
      sessionCsrf: session.csrfToken,
      csrfHeader: header(req, 'x-csrf-token'),
      requestedWith: header(req, 'x-requested-with'),
      strict: deps.config.current().ServiceSettings.ExperimentalStrictCSRFEnforcement,
    });
    if (!csrfOk) {
      deps.logger.info('CSRF check failed; forwarded without identity', { request_id: req.requestId, user_id: session.userId, method: req.method, path: loggablePath(req.path) });
      next();
      return;
    }
    locals.identity = {
      userId: session.userId,
      sessionId: session.sessionId,
      roles: session.roles,
      isBot: session.isBot,
      sessionType: session.sessionType,
      ...(session.tokenId === undefined ? {} : { tokenId: session.tokenId }),
    };
    next();
  };
}
