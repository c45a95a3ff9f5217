import { Router, type NextFunction, type Request, type Response } from 'express';
import { PostsInternalPaths, type InternalPostView } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { isInternalCall, sendJson } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { loadChannel } from '../../domain/access';
import { getOrCreateDirectChannel } from '../../domain/channels/direct-channel.usecase';
import { Errors } from '../../domain/errors';
import { integrationUpdatePost } from '../../domain/posts/integration-update.usecase';
import { idParam, type HttpContext } from './http-context';
import { internalDirectBody } from './channels.schemas';
import { integrationUpdateBody } from './posts.schemas';
import { presentInternalChannel, presentInternalMember, presentStoredPost } from './presenters';

const MEMBER_IDS_PAGE = 1_000;

/**
 * posts' internal API (PostsInternalPaths; never routed by the gateway). Callers prove they hold
 * INTERNAL_SECRET with the internal-call header or a signed identity; anything else is 401.
 */
export function internalRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  router.use('/internal', (req: Request, _res: Response, next: NextFunction) => {
    next(req.identity || isInternalCall(req, ctx.internalSecret) ? undefined : commonErrors.sessionExpired('internal call without credentials'));
  });

  router.post(PostsInternalPaths.directChannel, ...ctx.withBody, async (req, res) => {
    const { user_ids: ids } = validate(internalDirectBody, req.body) as { user_ids: [string, string] };
    sendJson(res, 200, presentInternalChannel(await getOrCreateDirectChannel(deps, ids[0], ids[1])));
  });

  router.get('/internal/v1/channels/:channel_id', async (req, res) => {
    sendJson(res, 200, presentInternalChannel(await loadChannel(deps, idParam(req, 'channel_id'))));
  });

  router.get('/internal/v1/teams/:team_id/channels/name/:name', async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const channel = await deps.channels.findByName(teamId, String(req.params.name ?? '').toLowerCase());
    if (!channel) throw Errors.channelByNameNotFound();
    sendJson(res, 200, presentInternalChannel(channel));
  });

  router.get('/internal/v1/channels/:channel_id/members/:user_id', async (req, res) => {
    const member = await deps.channelMembers.find(idParam(req, 'channel_id'), idParam(req, 'user_id'));
    if (!member) throw Errors.memberNotFound();
    sendJson(res, 200, presentInternalMember(member));
  });

  router.get('/internal/v1/channels/:channel_id/member-ids', async (req, res) => {
    const channel = await loadChannel(deps, idParam(req, 'channel_id'));
    const userIds: string[] = [];
    for (let page = 0; ; page += 1) {
      const members = await deps.channelMembers.listByChannel(channel.id, { page, perPage: MEMBER_IDS_PAGE });
      for (const member of members) userIds.push(member.user_id);
      if (members.length < MEMBER_IDS_PAGE) break;
    }
    sendJson(res, 200, { user_ids: userIds });
  });

  router.get('/internal/v1/posts/:post_id', async (req, res) => {
    const post = await deps.posts.findById(idParam(req, 'post_id'));
    if (!post) throw Errors.postNotFound();
    const view: InternalPostView = { post: presentStoredPost(post), channel: presentInternalChannel(await loadChannel(deps, post.channel_id)) };
    sendJson(res, 200, view);
  });

  router.put('/internal/v1/posts/:post_id', ...ctx.withBody, async (req, res) => {
    const postId = idParam(req, 'post_id');
    const body = validate(integrationUpdateBody, req.body) as { message?: string; props?: Record<string, unknown> | null };
    sendJson(res, 200, presentStoredPost(await integrationUpdatePost(deps, postId, body)));
  });

  return router;
}
