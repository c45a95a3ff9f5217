import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { listPinned } from '../../domain/pins/list-pinned.usecase';
import { setPinned } from '../../domain/pins/pin-post.usecase';
import { actorOf, idParam, type HttpContext } from './http-context';
import { presentPostList } from './presenters';

/** Pins (mattermost-wire-3.md §3.2). */
export function pinsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/posts/:post_id/pin', async (req, res) => {
    const postId = idParam(req, 'post_id');
    await setPinned(deps, actorOf(req), postId, true);
    sendStatusOk(res);
  });

  router.post('/api/v4/posts/:post_id/unpin', async (req, res) => {
    const postId = idParam(req, 'post_id');
    await setPinned(deps, actorOf(req), postId, false);
    sendStatusOk(res);
  });

  router.get('/api/v4/channels/:channel_id/pinned', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    sendJson(res, 200, presentPostList(await listPinned(deps, actorOf(req), channelId)));
  });

  return router;
}
