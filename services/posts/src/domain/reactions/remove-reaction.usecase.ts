import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { loadPostFor } from '../posts/load-post';
import { checkReactionInput, reactionEventId } from './add-reaction.usecase';

/**
 * `DELETE /users/{user_id}/posts/{post_id}/reactions/{emoji_name}`: one's own reaction (others' need
 * manage_system), remove_reaction on the channel. Updates has_reactions and queues `reaction.removed`.
 */
export async function removeReaction(deps: Deps, actor: Actor, userId: string, postId: string, emojiName: string): Promise<void> {
  checkReactionInput(userId, postId, emojiName);
  if (userId !== actor.userId && !hasPermission(actor.roles, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  const post = await loadPostFor(deps, actor, postId, Permissions.removeReaction);
  const channel = await loadChannel(deps, post.channel_id);
  await accessTo(deps, actor, channel).require(Permissions.removeReaction);
  if (channel.delete_at !== 0) throw Errors.reactionDeleteArchived();
  const reaction = (await deps.reactions.listByPost(postId)).find((r) => r.user_id === userId && r.emoji_name === emojiName);
  if (!reaction || !(await deps.reactions.delete(userId, postId, emojiName))) return;
  const now = deps.clock.now();
  const remaining = await deps.reactions.countByPost(postId);
  await deps.posts.update(postId, { has_reactions: remaining > 0, update_at: now }, { id: reactionEventId(reaction, 'removed', now), type: 'reaction.removed', time: now, source: 'api', reaction: { ...reaction, delete_at: now } });
  void deps.relay(post);
}
