import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { loadPostFor } from './load-post';
import { participantsOf } from '../threads/thread-view';
import { withReplyCounts } from './reply-counts';

/** `perPage` above this is 400 invalid_body_param (the reference's PerPageMaximum). */
export const THREAD_PER_PAGE_MAX = 200;

export interface ThreadQuery {
  readonly skipFetchThreads: boolean;
  readonly collapsedThreads: boolean;
  /** With collapsedThreads: participants as users instead of `{id}` stubs. */
  readonly collapsedThreadsExtended: boolean;
  /** 0: the whole thread. */
  readonly perPage: number;
  readonly fromCreateAt: number;
  readonly fromPost: string;
  readonly fromUpdateAt: number;
  readonly updatesOnly: boolean;
  /** '' (no order asked: oldest first here), `down` oldest first, `up` newest first. */
  readonly direction: '' | 'up' | 'down';
}

export interface ThreadPage {
  /** order[0] is the requested post; the rest follow without it (the newest reference de-duplicates). */
  readonly order: string[];
  readonly posts: StoredPost[];
  /** Only when perPage limited the page. */
  readonly hasNext?: boolean;
  /** collapsedThreads: the requested post's thread fields. */
  readonly thread?: { readonly participants: Record<string, unknown>[]; readonly isFollowing: boolean };
}

/**
 * The reference's query rules (its `c.SetInvalidParam…`: 400 api.context.invalid_body_param.app_error naming the
 * parameter). The HTTP route checks them while reading the query, in the reference's order; kept here for any other caller.
 */
export function checkThreadQuery(query: ThreadQuery): void {
  if (query.perPage > THREAD_PER_PAGE_MAX) throw commonErrors.invalidBodyParam('perPage');
  if (query.fromPost !== '' && query.fromCreateAt === 0) throw commonErrors.invalidBodyParam('if fromPost is set, then fromCreateAt must also be set');
  if (query.fromUpdateAt !== 0 && query.fromCreateAt !== 0) throw commonErrors.invalidBodyParam('fromUpdateAt', 'both fromUpdateAt and fromCreateAt cannot be set');
  if (query.updatesOnly && query.fromUpdateAt === 0) throw commonErrors.invalidBodyParam('fromUpdateAt', 'fromUpdateAt must be set if updatesOnly is set');
  if (query.updatesOnly && query.direction === 'up') throw commonErrors.invalidBodyParam('updatesOnly', 'updatesOnly flag cannot be used with up direction');
}

const byCreate = (a: StoredPost, b: StoredPost): number => a.create_at - b.create_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byUpdate = (a: StoredPost, b: StoredPost): number => a.update_at - b.update_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Strictly after (down) or before (up) the cursor. */
function pastCursor(post: StoredPost, query: ThreadQuery, up: boolean): boolean {
  if (query.fromUpdateAt !== 0) return up ? post.update_at < query.fromUpdateAt : post.update_at > query.fromUpdateAt;
  if (query.fromCreateAt === 0) return true;
  const key = post.create_at - query.fromCreateAt || (query.fromPost === '' ? 0 : post.id < query.fromPost ? -1 : post.id > query.fromPost ? 1 : 0);
  return up ? key < 0 : key > 0;
}

/**
 * `GET /posts/{id}/thread` (mattermost-wire-2.md §4.1): the requested post first, then the root and the
 * live replies of its thread in (create_at, id) order (`up` reverses it; `fromUpdateAt` orders by
 * update_at), after the optional cursor, limited by perPage (the root counts toward it). A missing or
 * deleted post is 404 app.post.get.app_error; reading needs access to its channel.
 */
export async function getThread(deps: Deps, actor: Actor, postId: string, query: ThreadQuery): Promise<ThreadPage> {
  checkThreadQuery(query);
  const post = await loadPostFor(deps, actor, postId, Permissions.readChannel);
  await accessTo(deps, actor, await loadChannel(deps, post.channel_id)).requireRead();
  if (query.skipFetchThreads) return { order: [post.id], posts: await withReplyCounts(deps, [post]) };

  const rootId = query.collapsedThreads || post.root_id === '' ? post.id : post.root_id;
  const replies = query.collapsedThreads && post.root_id !== '' ? [] : await deps.posts.listReplies(post.channel_id, rootId);
  const root = rootId === post.id ? post : await deps.posts.findById(rootId);
  const thread = [...(root && root.delete_at === 0 ? [root] : []), ...replies];

  const up = query.direction === 'up';
  const sorted = [...thread].sort(query.fromUpdateAt !== 0 ? byUpdate : byCreate);
  if (up) sorted.reverse();
  const after = sorted.filter((p) => pastCursor(p, query, up));
  const page = query.perPage > 0 ? after.slice(0, query.perPage) : after;
  const listed = await withReplyCounts(deps, [post, ...page.filter((p) => p.id !== post.id)]);
  const result: ThreadPage = {
    order: listed.map((p) => p.id),
    posts: listed,
    ...(query.perPage > 0 ? { hasNext: after.length > page.length } : {}),
  };
  if (!query.collapsedThreads) return result;
  // Participants are the reply authors (real users with collapsedThreadsExtended); following is the caller's thread membership.
  const ids = [...new Set(replies.map((r) => r.user_id))];
  const users = await participantsOf(deps, [{ root: post, replies, participantIds: ids }], query.collapsedThreadsExtended);
  const participants = ids.flatMap((id) => {
    const user = users.get(id);
    return user ? [user] : [];
  });
  const membership = await deps.threads.find(post.id, actor.userId);
  return { ...result, thread: { participants, isFollowing: membership?.following ?? false } };
}
