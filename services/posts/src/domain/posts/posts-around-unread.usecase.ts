import { commonErrors } from '@switchyard/errors';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import { requireSelfOrEditOthers } from '../channels/view-channel.usecase';
import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { collapsedThreadFields } from './collapsed-thread-fields';
import type { PostPage } from './list-channel-posts.usecase';

type AroundDeps = Pick<Deps, 'channels' | 'channelMembers' | 'posts' | 'users' | 'cachedMembers' | 'threads' | 'liveConfig'>;

/** The reference's collapsedThreads / collapsedThreadsExtended flags of this route. */
export interface AroundOptions {
  readonly collapsedThreads: boolean;
  readonly collapsedThreadsExtended: boolean;
}

/** Which posts count: live ones, and with collapsed threads roots only. */
interface Scope {
  readonly channelId: string;
  readonly includeDeleted: false;
  readonly rootsOnly: boolean;
}

/**
 * `GET /users/{user_id}/channels/{channel_id}/posts/unread` (the reference's getPostsForChannelAroundLastUnread): self
 * or edit_other_users, read access, `limit_after` not 0 (400), a membership (404). The first post after the member's last_viewed_at, up to
 * `limitBefore` posts before it and `limitAfter - 1` after it, newest first. Nothing unread (or never viewed): the
 * newest `limitBefore` posts instead. next/prev name the posts just outside the list. With collapsed threads every
 * step counts roots only (the first unread root, roots around it, roots next/prev), each with its thread fields as
 * `userId` sees them.
 */
export async function postsAroundLastUnread(
  deps: AroundDeps,
  actor: Actor,
  userId: string,
  channelId: string,
  limits: { readonly before: number; readonly after: number },
  options: AroundOptions = { collapsedThreads: false, collapsedThreadsExtended: false },
): Promise<PostPage> {
  const { before: limitBefore, after: limitAfter } = limits;
  requireSelfOrEditOthers(actor, userId);
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  if (limitAfter === 0) throw commonErrors.invalidUrlParam('limit_after');
  const member = await deps.channelMembers.find(channelId, userId);
  if (!member) throw Errors.memberNotFound();
  const scope: Scope = { channelId, includeDeleted: false, rootsOnly: options.collapsedThreads };
  const around = member.last_viewed_at === 0 ? [] : await aroundFirstUnread(deps, scope, member.last_viewed_at, limitBefore, limitAfter);
  const posts = around.length > 0 ? around : await deps.posts.list({ ...scope, skip: 0, limit: limitBefore });
  const page: PostPage = { posts, ...(await cursorIds(deps, scope, posts)) };
  if (!options.collapsedThreads) return page;
  return { ...page, threads: await collapsedThreadFields(deps, userId, posts, options.collapsedThreadsExtended) };
}

async function aroundFirstUnread(deps: AroundDeps, scope: Scope, lastViewedAt: number, limitBefore: number, limitAfter: number): Promise<StoredPost[]> {
  const [first] = await deps.posts.list({ ...scope, createdAfter: lastViewedAt, order: 'asc', skip: 0, limit: 1 });
  if (!first) return [];
  const [before, after] = await Promise.all([
    limitBefore > 0 ? deps.posts.list({ ...scope, createdBefore: first.create_at, skip: 0, limit: limitBefore }) : [],
    limitAfter > 1 ? deps.posts.list({ ...scope, createdAfter: first.create_at, order: 'asc', skip: 0, limit: limitAfter - 1 }) : [],
  ]);
  return [...after.reverse(), first, ...before];
}

/** The reference's GetNextPostIdFromPostList / GetPrevPostIdFromPostList: the posts right after the newest and before the oldest. */
async function cursorIds(deps: AroundDeps, scope: Scope, posts: readonly StoredPost[]): Promise<{ nextPostId: string; prevPostId: string }> {
  const newest = posts[0];
  const oldest = posts[posts.length - 1];
  if (!newest || !oldest) return { nextPostId: '', prevPostId: '' };
  const [next, prev] = await Promise.all([
    deps.posts.list({ ...scope, createdAfter: newest.create_at, order: 'asc', skip: 0, limit: 1 }),
    deps.posts.list({ ...scope, createdBefore: oldest.create_at, skip: 0, limit: 1 }),
  ]);
  return { nextPostId: next[0]?.id ?? '', prevPostId: prev[0]?.id ?? '' };
}
