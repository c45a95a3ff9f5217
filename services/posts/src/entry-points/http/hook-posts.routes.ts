import { Router } from 'express';
import { Services } from '@switchyard/contracts';
import { sendJson, sendStatusOk, serviceOnly } from '@switchyard/http-kit';
import { Joi, validate } from '@switchyard/validation';
import { hookDeletePost, hookEditPost } from '../../domain/posts/hook-post.usecase';
import { idParam, type HttpContext } from './http-context';
import { presentStoredPost } from './presenters';

const editBody = Joi.object({
  message: Joi.string().allow('').max(1_000_000).required(),
  props: Joi.object().unknown(true).required(),
  channel_id: Joi.string().max(64),
}).required();

/** Internal: incoming-hooks edits or deletes a post one of its hooks made (README "Hook edits its posts"). */
export function hookPostsRoutes(ctx: HttpContext): Router {
  const router = Router();
  const only = serviceOnly(ctx.internalSecret, [Services.incomingHooks]);
  const path = '/internal/v1/hooks/:hook_id/posts/:post_id';
  router.put(path, only, ...ctx.withBody, async (req, res) => {
    const body = validate(editBody, req.body) as { message: string; props: Record<string, unknown>; channel_id?: string };
    const post = await hookEditPost(ctx.deps, String(req.params.hook_id ?? ''), idParam(req, 'post_id'), { message: body.message, props: body.props, ...(body.channel_id ? { channelId: body.channel_id } : {}) });
    sendJson(res, 200, presentStoredPost(post));
  });
  router.delete(path, only, async (req, res) => {
    const channelId = typeof req.query.channel_id === 'string' ? req.query.channel_id : undefined;
    await hookDeletePost(ctx.deps, String(req.params.hook_id ?? ''), idParam(req, 'post_id'), channelId);
    sendStatusOk(res);
  });
  return router;
}
