import type { Actor } from '../actor';
import type { Deps } from '../ports';
import { membershipKey, requireSelfOrEditOthers, requireThreadRead } from './thread-access';
import { publishFollowChanged } from './thread-events';
import { isThread } from './thread-view';

/**
 * `PUT` (follow) and `DELETE` (unfollow) `/users/{user_id}/teams/{team_id}/threads/{thread_id}/following`:
 * self or edit_other_users, read access to the thread's channel; following marks it read now. Sends
 * `thread_follow_changed` `{thread_id, state, reply_count}` to the user.
 */
export async function setThreadFollowing(deps: Deps, actor: Actor, userId: string, teamId: string, threadId: string, state: boolean): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  const place = await requireThreadRead(deps, actor, threadId);
  const now = deps.clock.now();
  await deps.threads.maintain(membershipKey(place, userId), { following: state, ...(state ? { last_viewed: now, unread_mentions: 0 } : {}), last_updated: now });
  const replyCount = isThread(place.post) ? place.post.reply_count : 0;
  await publishFollowChanged(deps, { user_id: userId, team_id: teamId, thread_id: threadId, state, reply_count: replyCount });
}
