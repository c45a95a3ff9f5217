import type { Channel, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { mentionedMembers, postMentions, type PostMentions } from '../channels/mentioned-members';
import type { ThreadMembership } from './thread-ports';
import { publishThreadUpdated, usersWithCrt } from './thread-events';
import { participantsOf, threadResponse, type ThreadContent } from './thread-view';

/**
 * Who a reply mentions (channels/mentioned-members.ts, the reference's mentions of SendNotifications): `threadMention` those
 * who gain an unread thread mention (the other member of a direct channel, every member of a group channel, the members it
 * names, whose keywords it contains, or that heed its channel-wide words); `all` adds those mentioned only as the thread's
 * writers (their `comments` notify prop), who follow it when they had no membership yet.
 */
export async function replyMentions(deps: Deps, channel: Channel, reply: StoredPost, found?: Promise<PostMentions>): Promise<{ threadMention: Set<string>; all: Set<string> }> {
  const { ids, asWriters } = await (found ?? postMentions(deps, reply, channel));
  return { threadMention: new Set(ids.filter((id) => !asWriters.has(id))), all: new Set(ids) };
}

/**
 * A reply was stored (mattermost-wire-3.md §3.10, the reference's SendNotifications): its author, the
 * root's author (unless a webhook posted it), members mentioned in the root and members the reply mentions
 * follow the thread; a mention adds an unread mention and follows again even after an unfollow, the
 * others are left alone once they unfollowed. The author has then read the thread. Followers who still
 * belong to the channel get `thread_updated` (when users see collapsed threads); those events are sent
 * after this resolves. `found`: the reply's mentions when the caller already asked for them.
 */
export async function followOnReply(deps: Deps, reply: StoredPost, channel: Channel, found?: Promise<PostMentions>): Promise<void> {
  const root = await deps.posts.findById(reply.root_id);
  if (!root) return;
  const now = deps.clock.now();
  const key = (userId: string): { post_id: string; user_id: string; channel_id: string; team_id: string } => ({ post_id: root.id, user_id: userId, channel_id: channel.id, team_id: channel.team_id });
  const { threadMention: mentioned, all } = await replyMentions(deps, channel, reply, found);
  const candidates = new Set<string>([reply.user_id]);
  if (root.props.from_webhook !== 'true') candidates.add(root.user_id);
  if (channel.type !== 'D') for (const id of await mentionedMembers(deps, root, channel)) candidates.add(id);
  for (const id of all) candidates.add(id);

  const before = new Map((await deps.threads.listFollowers(root.id)).map((m) => [m.user_id, m]));
  for (const userId of candidates) {
    if (mentioned.has(userId)) {
      await deps.threads.maintain(key(userId), { following: true, add_mentions: 1, last_updated: now });
    } else if (!before.has(userId) && !(await deps.threads.find(root.id, userId))) {
      await deps.threads.maintain(key(userId), { following: true, last_updated: now });
    }
  }
  const replier = await deps.threads.find(root.id, reply.user_id);
  if (replier?.following) await deps.threads.maintain(key(reply.user_id), { last_viewed: now, unread_mentions: 0, last_updated: now });
  if (deps.liveConfig.current().ServiceSettings.CollapsedThreads !== 'disabled') void sendThreadUpdated(deps, root.id, channel, before).catch(() => undefined);
}

/** `thread_updated` to each follower still in the channel who sees collapsed threads: the thread as they now see it, and their unread counts before this reply. */
async function sendThreadUpdated(deps: Deps, rootId: string, channel: Channel, before: ReadonlyMap<string, ThreadMembership>): Promise<void> {
  const root = await deps.posts.findById(rootId);
  if (!root) return;
  const all = await deps.threads.listFollowers(rootId);
  const seeing = await usersWithCrt(deps, all.map((f) => f.user_id));
  const followers = all.filter((f) => seeing.has(f.user_id));
  if (followers.length === 0) return;
  // Never the thread's replies themselves: its participants as kept on the root and, per follower, counts of
  // the replies after a time (indexed ranges), so a reply's cost does not grow with the thread.
  const content: ThreadContent = { root, replies: [], participantIds: await deps.posts.participants(channel.id, rootId) };
  const participants = await participantsOf(deps, [content], true);
  const unreadAfter = new Map<number, Promise<number>>();
  const countAfter = (at: number): Promise<number> => {
    let count = unreadAfter.get(at);
    if (!count) unreadAfter.set(at, (count = deps.posts.countRepliesAfter(channel.id, rootId, at)));
    return count;
  };
  const priority = deps.liveConfig.current().ServiceSettings.PostPriority;
  const payloads = [];
  for (const follower of followers) {
    if (!(await deps.cachedMembers.cachedMember(channel.id, follower.user_id))) continue;
    const previous = before.get(follower.user_id);
    const unreadBefore = previous ? await countAfter(previous.last_viewed) : 0;
    payloads.push({
      user_id: follower.user_id,
      team_id: channel.team_id,
      thread: { ...threadResponse(content, follower, participants, { priority, unreadReplies: await countAfter(follower.last_viewed) }) },
      previous_unread_mentions: previous ? previous.unread_mentions : 0,
      previous_unread_replies: previous ? Math.max(unreadBefore - 1, 0) : 0,
    });
  }
  await publishThreadUpdated(deps, payloads);
}
