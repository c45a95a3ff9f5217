import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { doPostAction } from '../../domain/actions/do-action.usecase';
import { actionBody } from './hooks.schemas';
import { actorOf, idParam, requestDeps, type HttpContext } from './http-context';

/** Interactive actions (§8). */
export function actionsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/posts/:post_id/actions/:action_id', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const postId = idParam(req, 'post_id');
    const body = (validate(actionBody, req.body ?? null) ?? {}) as { selected_option?: string; cookie?: string };
    const answer = await doPostAction(requestDeps(deps, req), actor, postId, String(req.params.action_id ?? ''), {
      ...(body.selected_option !== undefined ? { selectedOption: body.selected_option } : {}),
      ...(body.cookie !== undefined ? { cookie: body.cookie } : {}),
    });
    sendJson(res, 200, answer);
  });

  return router;
}
