import type { Actor } from '../actor';
import type { Deps } from '../ports';
import { requireSelfOrEditOthers, requireThreadRead } from './thread-access';
import { ThreadErrors } from './thread-errors';
import type { ThreadMembership } from './thread-ports';
import { isThread, participantsOf, threadContent, threadResponse, type ThreadResponse } from './thread-view';

/** The ThreadResponse of a membership: 404 app.user.get_threads_for_user.not_found when not followed or no thread yet. */
export async function threadFor(deps: Deps, membership: ThreadMembership, extended: boolean): Promise<ThreadResponse> {
  if (!membership.following) throw ThreadErrors.threadNotFound();
  const root = await deps.posts.findById(membership.post_id);
  if (!isThread(root)) throw ThreadErrors.threadNotFound();
  const content = await threadContent(deps, root);
  return threadResponse(content, membership, await participantsOf(deps, [content], extended), { priority: deps.liveConfig.current().ServiceSettings.PostPriority });
}

/**
 * `GET /users/{user_id}/teams/{team_id}/threads/{thread_id}`: self or edit_other_users, read access to
 * the thread's channel (403), then the user's membership (404 app.user.get_thread_membership_for_user.not_found).
 */
export async function getUserThread(deps: Deps, actor: Actor, userId: string, threadId: string, extended: boolean): Promise<ThreadResponse> {
  requireSelfOrEditOthers(actor, userId);
  await requireThreadRead(deps, actor, threadId);
  const membership = await deps.threads.find(threadId, userId);
  if (!membership) throw ThreadErrors.membershipNotFound();
  return threadFor(deps, membership, extended);
}
