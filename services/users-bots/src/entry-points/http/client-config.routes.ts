import { Router, type Request } from 'express';
import { commonErrors, notImplemented } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { clientLicense, fullClientConfig, limitedClientConfig } from '../../domain/config/client-config';
import { optionalActorOf, queryValue, requestDeps, type HttpContext } from './http-context';

/** `format` must be `old` (the only format the reference ever shipped): missing 501, anything else 400. */
function requireOldFormat(req: Request, missingId: string): void {
  const format = queryValue(req, 'format');
  if (format === undefined || format === '') {
    throw notImplemented(missingId, 'New format for the client configuration is not supported yet. Please specify ?format=old to use the old format.');
  }
  if (format !== 'old') throw commonErrors.invalidBodyParam('format');
}

/** `GET /config/client` and `GET /license/client` (§3.8): no session needed; a session sees the full set. */
export function clientConfigRoutes(ctx: HttpContext, buildNumber: string): Router {
  const router = Router();

  router.get('/api/v4/config/client', async (req, res) => {
    const deps = requestDeps(ctx, res);
    requireOldFormat(req, 'api.config.client.old_format.app_error');
    const noAccounts = (await deps.users.search({ page: 0, perPage: 1 })).length === 0;
    const facts = { buildNumber, noAccounts };
    const config = deps.liveConfig.current();
    sendJson(res, 200, optionalActorOf(req) ? fullClientConfig(config, facts) : limitedClientConfig(config, facts));
  });

  router.get('/api/v4/license/client', (req, res) => {
    requireOldFormat(req, 'api.license.client.old_format.app_error');
    sendJson(res, 200, clientLicense());
  });

  return router;
}
