import { commonErrors } from '@switchyard/errors';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import { requireSelfOrEditOthers } from '../channels/view-channel.usecase';
import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import type { PostPage } from './list-channel-posts.usecase';

type AroundDeps = Pick<Deps, 'channels' | 'channelMembers' | 'posts' | 'users' | 'cachedMembers'>;

/**
 * `GET /users/{user_id}/channels/{channel_id}/posts/unread` (the reference's getPostsForChannelAroundLastUnread): self
 * or edit_other_users, read access, `limit_after` not 0 (400), a membership (404). The first post after the member's last_viewed_at, up to
 * `limitBefore` posts before it and `limitAfter - 1` after it, newest first. Nothing unread (or never viewed): the
 * newest `limitBefore` posts instead. next/prev name the posts just outside the list.
 */
export async function postsAroundLastUnread(deps: AroundDeps, actor: Actor, userId: string, channelId: string, limitBefore: number, limitAfter: number): Promise<PostPage> {
  requireSelfOrEditOthers(actor, userId);
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  if (limitAfter === 0) throw commonErrors.invalidUrlParam('limit_after');
  const member = await deps.channelMembers.find(channelId, userId);
  if (!member) throw Errors.memberNotFound();
  const around = member.last_viewed_at === 0 ? [] : await aroundFirstUnread(deps, channelId, member.last_viewed_at, limitBefore, limitAfter);
  const posts = around.length > 0 ? around : await deps.posts.list({ channelId, includeDeleted: false, skip: 0, limit: limitBefore });
  return { posts, ...(await cursorIds(deps, channelId, posts)) };
}

async function aroundFirstUnread(deps: AroundDeps, channelId: string, lastViewedAt: number, limitBefore: number, limitAfter: number): Promise<StoredPost[]> {
  const [first] = await deps.posts.list({ channelId, includeDeleted: false, createdAfter: lastViewedAt, order: 'asc', skip: 0, limit: 1 });
  if (!first) return [];
  const [before, after] = await Promise.all([
    limitBefore > 0 ? deps.posts.list({ channelId, includeDeleted: false, createdBefore: first.create_at, skip: 0, limit: limitBefore }) : [],
    limitAfter > 1 ? deps.posts.list({ channelId, includeDeleted: false, createdAfter: first.create_at, order: 'asc', skip: 0, limit: limitAfter - 1 }) : [],
  ]);
  return [...after.reverse(), first, ...before];
}

/** The reference's GetNextPostIdFromPostList / GetPrevPostIdFromPostList: the posts right after the newest and before the oldest. */
async function cursorIds(deps: AroundDeps, channelId: string, posts: readonly StoredPost[]): Promise<{ nextPostId: string; prevPostId: string }> {
  const newest = posts[0];
  const oldest = posts[posts.length - 1];
  if (!newest || !oldest) return { nextPostId: '', prevPostId: '' };
  const [next, prev] = await Promise.all([
    deps.posts.list({ channelId, includeDeleted: false, createdAfter: newest.create_at, order: 'asc', skip: 0, limit: 1 }),
    deps.posts.list({ channelId, includeDeleted: false, createdBefore: oldest.create_at, skip: 0, limit: 1 }),
  ]);
  return { nextPostId: next[0]?.id ?? '', prevPostId: prev[0]?.id ?? '' };
}
