import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { isUrgent } from '../rules/post-priority';
import { postMentions, type PostMentions } from './mentioned-members';


/**
 * A new post counts on its mentioned members (mentioned-members.ts; the reference's IncrementMentionCount), in one write:
 * `mention_count` + 1, `mention_count_root` + 1 for a root post, `urgent_mention_count` + 1 for an urgent one. Answers the
 * mentioned ids (the `posted` event's `mentions`); nothing is written when there are none. `found`: the post's mentions when
 * the caller already asked for them (a reply's are shared with its thread's follows).
 */
export async function countMentions(deps: Deps, post: StoredPost, channel: Channel, found?: Promise<PostMentions>): Promise<readonly string[]> {
  const { ids } = await (found ?? postMentions(deps, post, channel));
  if (ids.length === 0) return ids;
  await deps.channelMembers.incrementMentions(channel.id, { userIds: ids }, post.root_id === '', deps.clock.now(), isUrgent(post));
  return ids;
}
