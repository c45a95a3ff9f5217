import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { collapsedThreadFields, type CollapsedThreadFields } from './collapsed-thread-fields';

export interface ChannelPostsQuery {
  readonly page: number;
  readonly perPage: number;
  readonly since?: number;
  readonly before?: string;
  readonly after?: string;
  readonly includeDeleted: boolean;
  /** Roots only, each with its thread fields (the reference's CollapsedThreads). */
  readonly collapsedThreads?: boolean;
  /** With collapsedThreads: participants as users instead of `{id}` stubs. */
  readonly collapsedThreadsExtended?: boolean;
}

export interface PostPage {
  /** Newest first. */
  readonly posts: StoredPost[];
  readonly nextPostId: string;
  readonly prevPostId: string;
  /** Collapsed threads: the listed roots' thread fields, by root id (roots that never had a reply have none). */
  readonly threads?: ReadonlyMap<string, CollapsedThreadFields>;
}

export const SINCE_LIMIT = 1000;

/**
 * `GET /channels/{id}/posts`: `since` → posts updated after it (deleted ones included, up to 1000);
 * `before`/`after` → pages counted from that post; otherwise pages from the newest. Needs read access.
 * `collapsedThreads` (the reference's getPostsCollapsedThreads and friends): root posts only, every form, and
 * next/prev name roots; live ones only for `since` and the newest pages (include_deleted counts only before/after).
 */
export async function listChannelPosts(deps: Deps, actor: Actor, channelId: string, query: ChannelPostsQuery): Promise<PostPage> {
  const channel = await loadChannel(deps, channelId);
  await accessTo(deps, actor, channel).requireRead();
  const page = await pageOf(deps, actor, channelId, query);
  if (!query.collapsedThreads) return page;
  return { ...page, threads: await collapsedThreadFields(deps, actor.userId, page.posts, query.collapsedThreadsExtended === true) };
}

async function pageOf(deps: Deps, actor: Actor, channelId: string, query: ChannelPostsQuery): Promise<PostPage> {
  const rootsOnly = query.collapsedThreads === true;
  const includeDeleted = query.includeDeleted && hasPermission(actor.roles, Permissions.manageSystem);
  if (query.since !== undefined) {
    const posts = await deps.posts.list({ channelId, includeDeleted: !rootsOnly, updatedSince: query.since, rootsOnly, skip: 0, limit: SINCE_LIMIT });
    return { posts, nextPostId: '', prevPostId: '' };
  }
  const skip = query.page * query.perPage;
  if (query.perPage === 0) return { posts: [], nextPostId: '', prevPostId: '' };
  const anchorId = query.after ?? query.before;
  if (anchorId !== undefined) {
    const anchor = await deps.posts.findById(anchorId);
    if (!anchor || anchor.channel_id !== channelId) return { posts: [], nextPostId: '', prevPostId: '' };
    if (query.after !== undefined) {
      const window = await deps.posts.list({ channelId, includeDeleted, rootsOnly, createdAfter: anchor.create_at, order: 'asc', skip, limit: query.perPage + 1 });
      const page = window.slice(0, query.perPage);
      return { posts: page.reverse(), nextPostId: window[query.perPage]?.id ?? '', prevPostId: anchor.id };
    }
    const window = await deps.posts.list({ channelId, includeDeleted, rootsOnly, createdBefore: anchor.create_at, skip, limit: query.perPage + 1 });
    return { posts: window.slice(0, query.perPage), nextPostId: anchor.id, prevPostId: window[query.perPage]?.id ?? '' };
  }
  const from = Math.max(0, skip - 1);
  const window = await deps.posts.list({ channelId, includeDeleted: includeDeleted && !rootsOnly, rootsOnly, skip: from, limit: query.perPage + 1 + (skip - from) });
  const page = window.slice(skip - from, skip - from + query.perPage);
  return { posts: page, nextPostId: skip > 0 ? (window[0]?.id ?? '') : '', prevPostId: window[skip - from + query.perPage]?.id ?? '' };
}
