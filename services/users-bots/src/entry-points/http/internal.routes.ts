import { Router, type NextFunction, type Request, type Response } from 'express';
import { InternalPaths } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { resolveToken } from '../../domain/auth/resolve-token.usecase';
import { getInternalTeam } from '../../domain/teams/get-internal-team.usecase';
import { getTeamMember } from '../../domain/teams/get-team-member.usecase';
import { lookupUsers } from '../../domain/users/lookup-users.usecase';
import { isInternalCall } from '@switchyard/http-kit';
import { idParam, type HttpContext } from './http-context';
import { presentInternalTeam, presentInternalUser, presentTeamMember } from './presenters';
import { byIdsBody, byUsernamesBody, resolveBody } from './internal.schemas';

/**
 * Internal API (never routed by the gateway). Callers prove they hold INTERNAL_SECRET with a signed
 * identity or the internal-call header; anything else is 401.
 */
export function internalRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  router.use('/internal', (req: Request, _res: Response, next: NextFunction) => {
    next(req.identity || isInternalCall(req, ctx.internalSecret) ? undefined : commonErrors.sessionExpired('internal call without credentials'));
  });

  router.post(InternalPaths.resolveToken, ...ctx.withBody, async (req, res) => {
    const { token } = validate(resolveBody, req.body);
    sendJson(res, 200, await resolveToken(deps, token));
  });

  router.get(InternalPaths.config, (_req, res) => {
    sendJson(res, 200, deps.liveConfig.current());
  });

  router.post(InternalPaths.usersByIds, ...ctx.withBody, async (req, res) => {
    const { ids } = validate(byIdsBody, req.body);
    sendJson(res, 200, (await lookupUsers(deps, { ids })).map(presentInternalUser));
  });

  router.post(InternalPaths.usersByUsernames, ...ctx.withBody, async (req, res) => {
    const { usernames } = validate(byUsernamesBody, req.body);
    sendJson(res, 200, (await lookupUsers(deps, { usernames })).map(presentInternalUser));
  });

  router.get(`${InternalPaths.teamMember}/:team_id/members/:user_id`, async (req, res) => {
    const member = await getTeamMember(deps, idParam(req, 'team_id'), idParam(req, 'user_id'));
    sendJson(res, 200, presentTeamMember(member));
  });

  router.get(`${InternalPaths.teamMember}/name/:team_name`, async (req, res) => {
    const name = req.params.team_name;
    if (typeof name !== 'string' || !TEAM_NAME_PARAM.test(name)) throw commonErrors.invalidUrlParam('team_name');
    sendJson(res, 200, presentInternalTeam(await getInternalTeam(deps, { name })));
  });

  router.get(`${InternalPaths.teamMember}/:team_id`, async (req, res) => {
    sendJson(res, 200, presentInternalTeam(await getInternalTeam(deps, { id: idParam(req, 'team_id') })));
  });

  return router;
}

const TEAM_NAME_PARAM = /^[A-Za-z0-9_-]{1,64}$/;
