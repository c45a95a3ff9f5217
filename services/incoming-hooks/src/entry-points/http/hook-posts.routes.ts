import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import type { HookPosts } from '../../domain/hook-posts/hook-posts.port';
import { deleteHookPost, editHookPost } from '../../domain/hook-posts/manage-hook-post.usecase';
import { decodeJsonPayload } from './webhook-payload';
import type { HttpContext } from './http-context';

/**
 * `PUT` and `DELETE /hooks/{key}/posts/{post_id}` (README "Hook edits its posts"): no session, the key is
 * the credential. The PUT body is a JSON hook body (`text`, `attachments`, `props`, `username`, `icon_url`).
 */
export function hookPostsRoutes(ctx: HttpContext, hookPosts: HookPosts): Router {
  const router = Router();
  const path = '/hooks/:key/posts/:post_id';
  router.put(path, ...ctx.withBody.slice(0, 1), async (req, res) => {
    const text = (req.rawBody ?? Buffer.alloc(0)).toString('utf8');
    const post = await editHookPost(ctx.deps, hookPosts, String(req.params.key ?? ''), String(req.params.post_id ?? ''), decodeJsonPayload(text));
    sendJson(res, 200, post);
  });
  router.delete(path, async (req, res) => {
    await deleteHookPost(ctx.deps, hookPosts, String(req.params.key ?? ''), String(req.params.post_id ?? ''));
    sendStatusOk(res);
  });
  return router;
}
