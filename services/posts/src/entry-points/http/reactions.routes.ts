import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { addReaction } from '../../domain/reactions/add-reaction.usecase';
import { listReactions } from '../../domain/reactions/list-reactions.usecase';
import { removeReaction } from '../../domain/reactions/remove-reaction.usecase';
import { actorOf, idParam, userIdParam, type HttpContext } from './http-context';
import { reactionBody } from './posts.schemas';
import { presentReaction } from './presenters';

/** Reactions (mattermost-wire.md §12). */
export function reactionsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/reactions', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = validate(reactionBody, req.body) as { user_id: string; post_id: string; emoji_name: string };
    sendJson(res, 200, presentReaction(await addReaction(deps, actor, body)));
  });

  router.get('/api/v4/posts/:post_id/reactions', async (req, res) => {
    const postId = idParam(req, 'post_id');
    sendJson(res, 200, (await listReactions(deps, actorOf(req), postId)).map(presentReaction));
  });

  router.delete('/api/v4/users/:user_id/posts/:post_id/reactions/:emoji_name', async (req, res) => {
    const userId = userIdParam(req);
    const postId = idParam(req, 'post_id');
    await removeReaction(deps, actorOf(req), userId, postId, String(req.params.emoji_name ?? ''));
    sendStatusOk(res);
  });

  return router;
}
