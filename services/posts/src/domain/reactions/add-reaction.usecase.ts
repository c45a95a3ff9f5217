import { isValidId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Reaction } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { loadPostFor } from '../posts/load-post';

const EMOJI_NAME = /^[a-zA-Z0-9\-+_]+$/;

export function checkReactionInput(userId: string, postId: string, emojiName: string): void {
  if (!isValidId(userId) || !isValidId(postId) || emojiName === '' || emojiName.length > 64) throw Errors.reactionInvalid();
  if (!EMOJI_NAME.test(emojiName)) throw Errors.reactionEmojiName();
}

export const reactionEventId = (r: Reaction, kind: 'added' | 'removed', time: number): string => `${r.post_id}:reaction:${r.user_id}:${r.emoji_name}:${kind}:${time}`;

/**
 * `POST /reactions`: only for oneself (403), needs add_reaction on the post's channel, never in an
 * archived channel. Sets has_reactions and queues `reaction.added` in the post's outbox. Answers 200.
 */
export async function addReaction(deps: Deps, actor: Actor, input: { user_id: string; post_id: string; emoji_name: string }): Promise<Reaction> {
  checkReactionInput(input.user_id, input.post_id, input.emoji_name);
  if (input.user_id !== actor.userId) throw Errors.reactionOtherUser();
  const post = await loadPostFor(deps, actor, input.post_id, Permissions.addReaction);
  const channel = await loadChannel(deps, post.channel_id);
  await accessTo(deps, actor, channel).require(Permissions.addReaction);
  if (channel.delete_at !== 0) throw Errors.reactionArchived();
  const now = deps.clock.now();
  const existing = (await deps.reactions.listByPost(post.id)).find((r) => r.user_id === actor.userId && r.emoji_name === input.emoji_name);
  if (existing) return existing;
  const reaction = await deps.reactions.save({
    user_id: actor.userId,
    post_id: post.id,
    emoji_name: input.emoji_name,
    create_at: now,
    update_at: now,
    delete_at: 0,
    remote_id: '',
    channel_id: channel.id,
  });
  await deps.posts.update(post.id, { has_reactions: true, update_at: now }, { id: reactionEventId(reaction, 'added', now), type: 'reaction.added', time: now, source: 'api', reaction });
  void deps.relay(post);
  return reaction;
}
