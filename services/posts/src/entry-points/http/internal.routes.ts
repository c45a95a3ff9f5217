import { Router } from 'express';
import { createPostCommandPayloadSchema, PostsInternalPaths, Services, type CreatePostCommandPayload, type InternalPostView } from '@switchyard/contracts';
import { jsonBody, rawBody, sendJson, serviceOnly } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { loadChannel } from '../../domain/access';
import { joinDefaultChannels } from '../../domain/channels/default-channels.usecase';
import { getOrCreateDirectChannel } from '../../domain/channels/direct-channel.usecase';
import { createPostFromCommand } from '../../domain/posts/create-post-from-command.usecase';
import { Errors } from '../../domain/errors';
import { integrationUpdatePost } from '../../domain/posts/integration-update.usecase';
import { idParam, type HttpContext } from './http-context';
import { internalDirectBody } from './channels.schemas';
import { integrationUpdateBody } from './posts.schemas';
import { presentInternalChannel, presentInternalMember, presentStoredPost } from './presenters';

const MEMBER_IDS_PAGE = 1_000;
/** A reply's post: 16,383 runes and props up to the props cap, as JSON; a service's body, not a user's. */
const CREATE_POST_BODY_BYTES = 4 * 1024 * 1024;

/**
 * posts' internal API (PostsInternalPaths; never routed by the gateway). Each route names the services
 * that may call it; they prove it with a service credential (http-kit serviceOnly). A user identity,
 * however valid, is refused (401), and so is every request to /internal without a credential.
 */
export function internalRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  const { incomingHooks, outgoingDispatch, realtime, usersBots } = Services;
  const only = (...callers: string[]) => serviceOnly(ctx.internalSecret, callers);
  router.use('/internal', only(incomingHooks, outgoingDispatch, realtime, usersBots));

  router.post('/internal/v1/teams/:team_id/members/:user_id/default-channels', only(usersBots), async (req, res) => {
    const outcome = await joinDefaultChannels(deps, idParam(req, 'team_id'), idParam(req, 'user_id'));
    if (outcome === 'unknown_team') throw Errors.teamNotFound();
    res.status(204).end();
  });

  router.post(PostsInternalPaths.directChannel, only(incomingHooks, outgoingDispatch), ...ctx.withBody, async (req, res) => {
    const { user_ids: ids } = validate(internalDirectBody, req.body) as { user_ids: [string, string] };
    sendJson(res, 200, presentInternalChannel(await getOrCreateDirectChannel(deps, ids[0], ids[1])));
  });

  router.get('/internal/v1/channels/:channel_id', only(incomingHooks, outgoingDispatch), async (req, res) => {
    sendJson(res, 200, presentInternalChannel(await loadChannel(deps, idParam(req, 'channel_id'))));
  });

  router.get('/internal/v1/teams/:team_id/channels/name/:name', only(incomingHooks, outgoingDispatch), async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const channel = await deps.channels.findByName(teamId, String(req.params.name ?? '').toLowerCase());
    if (!channel) throw Errors.channelByNameNotFound();
    sendJson(res, 200, presentInternalChannel(channel));
  });

  router.get('/internal/v1/channels/:channel_id/members/:user_id', only(incomingHooks, outgoingDispatch, usersBots), async (req, res) => {
    const member = await deps.channelMembers.find(idParam(req, 'channel_id'), idParam(req, 'user_id'));
    if (!member) throw Errors.memberNotFound();
    sendJson(res, 200, presentInternalMember(member));
  });

  router.get('/internal/v1/channels/:channel_id/member-ids', only(realtime, usersBots), async (req, res) => {
    const channel = await loadChannel(deps, idParam(req, 'channel_id'));
    const userIds: string[] = [];
    for (let page = 0; ; page += 1) {
      const members = await deps.channelMembers.listByChannel(channel.id, { page, perPage: MEMBER_IDS_PAGE });
      for (const member of members) userIds.push(member.user_id);
      if (members.length < MEMBER_IDS_PAGE) break;
    }
    sendJson(res, 200, { user_ids: userIds });
  });

  router.get('/internal/v1/posts/:post_id', only(incomingHooks, outgoingDispatch, usersBots), async (req, res) => {
    const post = await deps.posts.findById(idParam(req, 'post_id'));
    if (!post) throw Errors.postNotFound();
    const view: InternalPostView = { post: presentStoredPost(post), channel: presentInternalChannel(await loadChannel(deps, post.channel_id)) };
    sendJson(res, 200, view);
  });

  router.post(PostsInternalPaths.createPost, only(outgoingDispatch), rawBody(() => CREATE_POST_BODY_BYTES), jsonBody, async (req, res) => {
    const command = validate(createPostCommandPayloadSchema, req.body) as CreatePostCommandPayload;
    const outcome = await createPostFromCommand(deps, command);
    sendJson(res, outcome.created ? 201 : 200, presentStoredPost(outcome.post));
  });

  router.put('/internal/v1/posts/:post_id', only(outgoingDispatch), ...ctx.withBody, async (req, res) => {
    const postId = idParam(req, 'post_id');
    const body = validate(integrationUpdateBody, req.body) as { message?: string; props?: Record<string, unknown> | null };
    sendJson(res, 200, presentStoredPost(await integrationUpdatePost(deps, postId, body)));
  });

  return router;
}
