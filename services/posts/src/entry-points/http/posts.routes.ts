import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { createEphemeralPost, sendEphemeralPost, type EphemeralPostCommand } from '../../domain/posts/create-ephemeral-post.usecase';
import { createPost } from '../../domain/posts/create-post.usecase';
import { deletePost } from '../../domain/posts/delete-post.usecase';
import { editPost, updatePost } from '../../domain/posts/edit-post.usecase';
import { getPost } from '../../domain/posts/get-post.usecase';
import { getThread } from '../../domain/posts/get-thread.usecase';
import { withReplyCount, withReplyCounts } from '../../domain/posts/reply-counts';
import { listChannelPosts } from '../../domain/posts/list-channel-posts.usecase';
import { commonErrors } from '@switchyard/errors';
import { createPostBodyOf } from './create-post-body';
import { actorOf, idParam, paging, queryBool, queryValue, type HttpContext } from './http-context';
import { ephemeralPostBody, patchPostBody, updatePostBody } from './posts.schemas';
import { presentPost, presentPostList, presentThread } from './presenters';
import { goInt } from './go-int';
import { threadQueryOf } from './thread-query';

interface EditBody {
  id?: string;
  message?: string;
  props?: Record<string, unknown> | null;
  file_ids?: string[] | null;
  is_pinned?: boolean;
}

const ID = /^[a-z0-9]{26}$/;

/** Posts (mattermost-wire.md §7). */
export function postsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/posts', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = createPostBodyOf(req.body);
    const priority = body.metadata?.priority;
    const post = await createPost(deps, actor, {
      channel_id: body.channel_id,
      message: body.message,
      type: body.type,
      props: body.props ?? {},
      root_id: body.root_id,
      file_ids: body.file_ids ?? [],
      pending_post_id: body.pending_post_id,
      ...(body.create_at !== undefined ? { create_at: body.create_at } : {}),
      ...(priority ? { priority } : {}),
    });
    sendJson(res, 201, presentPost(await withReplyCount(deps, post)));
  });

  router.post('/api/v4/posts/ephemeral', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    // A bad field is the reference's `c.SetInvalidParam(<field>)`: 400 invalid_body_param naming it.
    const body = validate(ephemeralPostBody, req.body, { onError: (key) => commonErrors.invalidBodyParam(key) }) as { user_id: string; post: EphemeralPostCommand['post'] & { props: Record<string, unknown> | null } };
    const post = createEphemeralPost(deps, actor, { user_id: body.user_id, post: { ...body.post, props: body.post.props ?? {} } });
    await sendEphemeralPost(deps, body.user_id, post);
    sendJson(res, 201, presentPost(post));
  });

  router.get('/api/v4/posts/:post_id', async (req, res) => {
    const postId = idParam(req, 'post_id');
    sendJson(res, 200, presentPost(await withReplyCount(deps, await getPost(deps, actorOf(req), postId, queryBool(req, 'include_deleted')))));
  });

  router.get('/api/v4/posts/:post_id/thread', async (req, res) => {
    const postId = idParam(req, 'post_id');
    sendJson(res, 200, presentThread(await getThread(deps, actorOf(req), postId, threadQueryOf(req))));
  });

  router.put('/api/v4/posts/:post_id', ...ctx.withBody, async (req, res) => {
    const postId = idParam(req, 'post_id');
    const actor = actorOf(req);
    const body = validate(updatePostBody, req.body) as EditBody;
    const post = await updatePost(deps, actor, postId, body.id ?? '', {
      ...(body.message !== undefined ? { message: body.message } : {}),
      ...(body.props !== undefined && body.props !== null ? { props: body.props } : {}),
      ...(body.file_ids !== undefined ? { file_ids: body.file_ids } : {}),
      ...(body.is_pinned !== undefined ? { is_pinned: body.is_pinned } : {}),
    });
    sendJson(res, 200, presentPost(await withReplyCount(deps, post)));
  });

  router.put('/api/v4/posts/:post_id/patch', ...ctx.withBody, async (req, res) => {
    const postId = idParam(req, 'post_id');
    const actor = actorOf(req);
    const body = validate(patchPostBody, req.body) as EditBody;
    const post = await editPost(deps, actor, postId, {
      ...(body.message !== undefined ? { message: body.message } : {}),
      ...(body.props !== undefined ? { props: body.props ?? {} } : {}),
      ...(body.file_ids !== undefined ? { file_ids: body.file_ids } : {}),
      ...(body.is_pinned !== undefined ? { is_pinned: body.is_pinned } : {}),
    });
    sendJson(res, 200, presentPost(await withReplyCount(deps, post)));
  });

  router.delete('/api/v4/posts/:post_id', async (req, res) => {
    const postId = idParam(req, 'post_id');
    await deletePost(deps, actorOf(req), postId, queryBool(req, 'permanent'));
    sendStatusOk(res);
  });

  router.get('/api/v4/channels/:channel_id/posts', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const actor = actorOf(req);
    const sinceRaw = queryValue(req, 'since');
    const before = queryValue(req, 'before');
    const after = queryValue(req, 'after');
    // The reference's `c.SetInvalidParam…` (400 invalid_body_param), after first, then before, then since (Go's ParseInt).
    if (after !== undefined && after !== '' && !ID.test(after)) throw commonErrors.invalidBodyParam('after');
    if (before !== undefined && before !== '' && !ID.test(before)) throw commonErrors.invalidBodyParam('before');
    const since = sinceRaw === undefined || sinceRaw === '' ? 0 : goInt(sinceRaw);
    if (since === undefined) throw commonErrors.invalidBodyParam('since');
    const { page, perPage } = paging(req);
    const result = await listChannelPosts(deps, actor, channelId, {
      page,
      perPage,
      includeDeleted: queryBool(req, 'include_deleted'),
      // Go's ParseBool here (1, t, TRUE...), as the reference's getPostsForChannel.
      collapsedThreads: queryBool(req, 'collapsedThreads'),
      collapsedThreadsExtended: queryBool(req, 'collapsedThreadsExtended'),
      ...(since > 0 ? { since } : {}),
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
    });
    sendJson(res, 200, presentPostList(await withReplyCounts(deps, result.posts), result.nextPostId, result.prevPostId, result.threads));
  });

  return router;
}
