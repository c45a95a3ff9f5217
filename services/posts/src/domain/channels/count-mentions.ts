import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { isUrgent } from '../rules/post-priority';
import { mentionedMembers } from './mentioned-members';


/**
 * A new post counts on its mentioned members (mentioned-members.ts; the reference's IncrementMentionCount), in one write:
 * `mention_count` + 1, `mention_count_root` + 1 for a root post, `urgent_mention_count` + 1 for an urgent one. Answers the
 * mentioned ids (the `posted` event's `mentions`); nothing is written when there are none.
 */
export async function countMentions(deps: Deps, post: StoredPost, channel: Channel): Promise<readonly string[]> {
  const ids = await mentionedMembers(deps, post, channel);
  if (ids.length === 0) return ids;
  await deps.channelMembers.incrementMentions(channel.id, { userIds: ids }, post.root_id === '', deps.clock.now(), isUrgent(post));
  return ids;
}
