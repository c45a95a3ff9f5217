import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import { createGroupChannel } from '../../domain/channels/group-channel.usecase';
import { actorOf, type HttpContext } from './http-context';
import { presentChannel } from './presenters';

/** The most ids a body may hold before the size rule answers (bounded work on hostile bodies). */
const MAX_BODY_IDS = 1000;

/** `POST /channels/group` (mattermost-wire-3.md §3.3): 201 for a new group and for an existing one. */
export function groupChannelsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/channels/group', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body: unknown = req.body;
    if (!Array.isArray(body) || body.length === 0) throw commonErrors.invalidBodyParam('user_ids');
    if (body.length > MAX_BODY_IDS || !body.every((id) => typeof id === 'string' && isValidId(id))) throw commonErrors.invalidBodyParam('user_id');
    sendJson(res, 201, presentChannel(await createGroupChannel(deps, actor, body as string[])));
  });

  return router;
}
