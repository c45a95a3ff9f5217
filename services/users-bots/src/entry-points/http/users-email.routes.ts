import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { isAdmin } from '../../domain/authorization';
import { isValidEmail } from '../../domain/rules/user-rules';
import { getUserByEmail } from '../../domain/users/get-user-by-email.usecase';
import { actorOf, requestDeps, type HttpContext } from './http-context';
import { presentUser } from './presenters';

/** `GET /users/email/{email}`: the value is lower-cased; not an address → 400 invalid_url_param `email`. */
export function usersEmailRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.get('/api/v4/users/email/:email', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const raw = req.params.email;
    const email = typeof raw === 'string' ? raw.toLowerCase() : '';
    if (!isValidEmail(email)) throw commonErrors.invalidUrlParam('email');
    const view = await getUserByEmail(deps, actor, email);
    sendJson(res, 200, presentUser(view, { self: view.user.id === actor.userId, admin: isAdmin(actor), config: deps.liveConfig.current() }));
  });

  return router;
}
