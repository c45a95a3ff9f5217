import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { convertUserToBot } from '../../domain/users/convert-user-to-bot.usecase';
import { deleteUser } from '../../domain/users/delete-user.usecase';
import { updateUserActive } from '../../domain/users/update-user-active.usecase';
import { updateUserRoles } from '../../domain/users/update-user-roles.usecase';
import { actorOf, queryBool, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentBot } from './presenters';
import { activeBody, rolesBody } from './users.schemas';

/** Deactivation, roles and conversion of users. */
export function userAdminRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.delete('/api/v4/users/:user_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    await deleteUser(deps, actor, userIdParam(req), { permanent: queryBool(req, 'permanent') });
    sendStatusOk(res);
  });

  router.put('/api/v4/users/:user_id/active', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const body = validate(activeBody, req.body);
    await updateUserActive(deps, actor, userId, body.active);
    sendStatusOk(res);
  });

  router.put('/api/v4/users/:user_id/roles', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const body = validate(rolesBody, req.body);
    await updateUserRoles(deps, actor, userId, body.roles);
    sendStatusOk(res);
  });

  router.post('/api/v4/users/:user_id/convert_to_bot', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const converted = await convertUserToBot(deps, actor, userIdParam(req));
    sendJson(res, 200, presentBot(converted));
  });

  return router;
}
