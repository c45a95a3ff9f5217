import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { replyMentions } from './follow-on-reply';
import { publishThreadUpdated, usersWithCrt } from './thread-events';
import { participantsOf, threadContent, threadResponse } from './thread-view';

/**
 * A reply was deleted (the reference's RemoveNotifications, when CollapsedThreads is not disabled): each
 * user it mentioned who had not viewed the thread since loses that unread mention, and gets
 * `thread_updated` (previous counts 0, as the reference sends them).
 */
export async function forgetReplyMentions(deps: Deps, reply: StoredPost, channel: Channel): Promise<void> {
  const config = deps.liveConfig.current();
  if (reply.root_id === '' || config.ServiceSettings.CollapsedThreads === 'disabled') return;
  const now = deps.clock.now();
  const changed = [];
  for (const userId of (await replyMentions(deps, channel, reply)).threadMention) {
    const membership = await deps.threads.find(reply.root_id, userId);
    if (!membership || membership.last_viewed > reply.create_at || membership.unread_mentions === 0) continue;
    changed.push(await deps.threads.maintain(membership, { add_mentions: -1, last_updated: now }));
  }
  const seeing = await usersWithCrt(deps, changed.map((m) => m.user_id));
  const shown = changed.filter((m) => seeing.has(m.user_id));
  if (shown.length === 0) return;
  const root = await deps.posts.findById(reply.root_id);
  if (!root) return;
  const content = await threadContent(deps, root);
  const participants = await participantsOf(deps, [content], true);
  await publishThreadUpdated(
    deps,
    shown.map((m) => ({ user_id: m.user_id, team_id: channel.team_id, thread: { ...threadResponse(content, m, participants, { priority: config.ServiceSettings.PostPriority }) }, previous_unread_mentions: 0, previous_unread_replies: 0 })),
  );
}
