import type { UserMentionSettings } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { usersWithCrt } from '../threads/thread-events';

/**
 * The reference's comment mentions (getExplicitMentionsAndKeywords, "users that have comment thread mentions enabled"): a
 * reply mentions the members who wrote its thread's root (`comments` `root` or `any`) or one of its replies (`any`) while they
 * do not see collapsed threads (IsCRTEnabledForUser). Read only when a member set `comments`: then the root and the thread's
 * participants (the authors of its live replies, kept on the root) are read once.
 */
export async function commentMentions(
  deps: Deps,
  reply: Pick<StoredPost, 'root_id'>,
  channel: Pick<Channel, 'id'>,
  settings: ReadonlyMap<string, UserMentionSettings>,
  members: ReadonlySet<string>,
): Promise<Set<string>> {
  const mentioned = new Set<string>();
  if (reply.root_id === '') return mentioned;
  const wanting = [...settings].filter(([id, s]) => s.comments !== undefined && members.has(id));
  if (wanting.length === 0) return mentioned;
  const root = await deps.posts.findById(reply.root_id);
  if (!root) return mentioned;
  const repliers = new Set(wanting.some(([, s]) => s.comments === 'any') ? await deps.posts.participants(channel.id, root.id) : []);
  const wrote = wanting.filter(([id, s]) => id === root.user_id || (s.comments === 'any' && repliers.has(id))).map(([id]) => id);
  const collapsed = await usersWithCrt(deps, wrote);
  for (const id of wrote) if (!collapsed.has(id)) mentioned.add(id);
  return mentioned;
}
