import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { goAtoi, Joi, validate } from '@switchyard/validation';
import { channelStats } from '../../domain/channels/channel-stats.usecase';
import { channelUnread } from '../../domain/channels/channel-unread.usecase';
import { updateChannel, type ChannelUpdate } from '../../domain/channels/update-channel.usecase';
import { viewChannels } from '../../domain/channels/view-channel.usecase';
import { postsAroundLastUnread } from '../../domain/posts/posts-around-unread.usecase';
import { withReplyCounts } from '../../domain/posts/reply-counts';
import { actorOf, idParam, queryBool, queryValue, userIdParam, type HttpContext } from './http-context';
import { presentChannel, presentPostList } from './presenters';

const ID_OR_EMPTY = /^([a-z0-9]{26})?$/;

/** `limit_before` / `limit_after` as the reference's params: not a number or negative → 60, above 200 → 200. */
function limitParam(value: string | undefined): number {
  const parsed = goAtoi(value);
  return parsed === undefined || parsed < 0 ? 60 : Math.min(parsed, 200);
}

/** The Channel body of a full update: known fields must have their JSON types (else 400 invalid_param `channel`). */
const updateChannelBody = Joi.object({
  id: Joi.string().allow(''),
  display_name: Joi.string().allow('').allow(null),
  name: Joi.string().allow('').allow(null),
  header: Joi.string().allow('').allow(null),
  purpose: Joi.string().allow('').allow(null),
  type: Joi.string().allow('').allow(null),
})
  .unknown(true)
  .required();

/** Full channel update, stats, viewing, unread counts and the posts around the first unread (mattermost-wire-3.md §3.4 to §3.6). */
export function channelViewsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.put('/api/v4/channels/:channel_id', ...ctx.withBody, async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const body = validate(updateChannelBody, req.body, { onError: () => commonErrors.invalidBodyParam('channel') }) as Record<string, string | null | undefined>;
    if (body.id !== channelId) throw commonErrors.invalidBodyParam('channel_id');
    const update: ChannelUpdate = {
      ...(body.display_name ? { display_name: body.display_name } : {}),
      ...(body.name ? { name: body.name } : {}),
      ...(typeof body.header === 'string' ? { header: body.header } : {}),
      ...(typeof body.purpose === 'string' ? { purpose: body.purpose } : {}),
      ...(body.type ? { type: body.type } : {}),
    };
    sendJson(res, 200, presentChannel(await updateChannel(deps, actorOf(req), channelId, update)));
  });

  router.get('/api/v4/channels/:channel_id/stats', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    sendJson(res, 200, await channelStats(deps, actorOf(req), channelId, queryBool(req, 'exclude_files_count')));
  });

  router.post('/api/v4/channels/members/:user_id/view', ...ctx.withBody, async (req, res) => {
    const userId = userIdParam(req);
    const body = (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : undefined) as Record<string, unknown> | undefined;
    if (!body) throw commonErrors.invalidBodyParam('channel_view');
    const channelId = body.channel_id ?? '';
    const prevChannelId = body.prev_channel_id ?? '';
    if (typeof channelId !== 'string' || !ID_OR_EMPTY.test(channelId)) throw commonErrors.invalidBodyParam('channel_view.channel_id');
    if (typeof prevChannelId !== 'string' || !ID_OR_EMPTY.test(prevChannelId)) throw commonErrors.invalidBodyParam('channel_view.prev_channel_id');
    const collapsed = body.collapsed_threads_supported;
    if (collapsed !== undefined && collapsed !== null && typeof collapsed !== 'boolean') throw commonErrors.invalidBodyParam('channel_view');
    sendJson(res, 200, await viewChannels(deps, actorOf(req), userId, [channelId, prevChannelId], collapsed === true));
  });

  router.get('/api/v4/users/:user_id/channels/:channel_id/unread', async (req, res) => {
    const userId = userIdParam(req);
    const channelId = idParam(req, 'channel_id');
    sendJson(res, 200, await channelUnread(deps, actorOf(req), userId, channelId));
  });

  router.get('/api/v4/users/:user_id/channels/:channel_id/posts/unread', async (req, res) => {
    const userId = userIdParam(req);
    const channelId = idParam(req, 'channel_id');
    const limitBefore = limitParam(queryValue(req, 'limit_before'));
    const limitAfter = limitParam(queryValue(req, 'limit_after'));
    // Exactly "true" here, as the reference's getPostsForChannelAroundLastUnread.
    const options = { collapsedThreads: queryValue(req, 'collapsedThreads') === 'true', collapsedThreadsExtended: queryValue(req, 'collapsedThreadsExtended') === 'true' };
    const page = await postsAroundLastUnread(ctx.deps, actorOf(req), userId, channelId, { before: limitBefore, after: limitAfter }, options);
    sendJson(res, 200, presentPostList(await withReplyCounts(ctx.deps, page.posts), page.nextPostId, page.prevPostId, page.threads));
  });

  return router;
}
