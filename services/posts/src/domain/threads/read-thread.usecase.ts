import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { membershipKey, requireSelfOrEditOthers, requireThreadRead, requireViewTeam, type ThreadPlace } from './thread-access';
import { ThreadErrors } from './thread-errors';
import { publishReadChanged } from './thread-events';
import { countThreadMentions } from './thread-mentions';
import type { ThreadResponse } from './thread-view';
import { threadFor } from './user-thread.usecase';

/**
 * The reference's UpdateThreadReadForUser: the user follows the thread, has read it up to `timestamp`
 * (which may move back: "mark as unread"), and their unread mentions are counted again from the replies
 * from it on (thread-mentions.ts: countThreadMentions); `thread_read_changed` goes to them. A missing or deleted root is
 * 404 app.post.get.app_error.
 */
async function readUpTo(deps: Deps, place: ThreadPlace, userId: string, teamId: string, timestamp: number): Promise<ThreadResponse> {
  const now = deps.clock.now();
  const key = membershipKey(place, userId);
  const before = await deps.threads.maintain(key, { following: true, last_updated: now });
  const root = place.post;
  if (root.delete_at !== 0) throw Errors.postNotFound();
  const replies = await deps.posts.listReplies(root.channel_id, root.id);
  const [user] = await deps.users.usersByIds([userId]);
  // Unknown settings (users-bots unreachable) read as the defaults.
  const settings = deps.mentionSettings ? (await deps.mentionSettings.of([userId]).catch(() => new Map<string, never>())).get(userId) : undefined;
  const reader = { id: userId, username: user?.username ?? '', settings };
  const mentions = await countThreadMentions(place.channel, replies, reader, timestamp);
  const membership = await deps.threads.maintain(key, { following: true, last_viewed: timestamp, unread_mentions: mentions, last_updated: now });
  const thread = await threadFor(deps, membership, false);
  await publishReadChanged(deps, {
    user_id: userId,
    team_id: teamId,
    thread_id: root.id,
    timestamp,
    unread_mentions: membership.unread_mentions,
    unread_replies: thread.unread_replies,
    previous_unread_mentions: before.unread_mentions,
    previous_unread_replies: replies.filter((r) => r.create_at > before.last_viewed).length,
    channel_id: root.channel_id,
  });
  return thread;
}

/** `PUT /users/{user_id}/teams/{team_id}/threads/{thread_id}/read/{timestamp}` (ms): the thread as now read. */
export async function readThread(deps: Deps, actor: Actor, userId: string, teamId: string, threadId: string, timestamp: number): Promise<ThreadResponse> {
  requireSelfOrEditOthers(actor, userId);
  return readUpTo(deps, await requireThreadRead(deps, actor, threadId), userId, teamId, timestamp);
}

/**
 * `POST /users/{user_id}/teams/{team_id}/threads/{thread_id}/set_unread/{post_id}`: read up to just before
 * that post, which must be the root or one of its replies (else 400); a missing or deleted post is 404.
 */
export async function setThreadUnread(deps: Deps, actor: Actor, userId: string, teamId: string, threadId: string, postId: string): Promise<ThreadResponse> {
  requireSelfOrEditOthers(actor, userId);
  const place = await requireThreadRead(deps, actor, threadId);
  const post = postId === threadId ? place.post : await deps.posts.findById(postId);
  if (!post || post.delete_at !== 0) throw Errors.postNotFound();
  if (post.root_id !== threadId && post.id !== threadId) throw ThreadErrors.postNotInThread();
  return readUpTo(deps, place, userId, teamId, post.create_at - 1);
}

/** `PUT /users/{user_id}/teams/{team_id}/threads/read`: every thread of the team (and of direct/group channels) read now. */
export async function readAllThreads(deps: Deps, actor: Actor, userId: string, teamId: string): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  await requireViewTeam(deps, actor, teamId);
  await deps.threads.markAllRead(userId, [teamId, ''], deps.clock.now());
  await publishReadChanged(deps, { user_id: userId, team_id: teamId });
}
