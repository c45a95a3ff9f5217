import type { Channel } from '../entities';
import type { Deps } from '../ports';
import { publishReadChanged, usersWithCrt } from './thread-events';

type ViewDeps = Pick<Deps, 'threads' | 'posts' | 'liveConfig'>;

/**
 * The thread part of the reference's MarkChannelsAsViewed, for the viewed channels that had unreads: when the
 * client does not support collapsed threads or the user does not see them (ThreadAutoFollow is always on
 * here), their threads are marked read; if the user does see collapsed threads, each such channel then gets
 * `thread_read_changed` `{timestamp}` (broadcast to the user and the channel) for their other clients.
 */
export async function readThreadsOnView(deps: Deps, userId: string, channels: readonly Channel[], collapsedThreadsSupported: boolean, at: number): Promise<void> {
  const crtOn = (await usersWithCrt(deps, [userId])).has(userId);
  if (collapsedThreadsSupported && crtOn) return;
  await markChannelThreadsRead(deps, userId, channels, at);
  if (!crtOn) return;
  for (const channel of channels) await publishReadChanged(deps, { user_id: userId, team_id: '', channel_id: channel.id, timestamp: at });
}

/**
 * The reference's MarkAllAsReadByChannels: each thread of these channels the user follows with a reply
 * after their last view gets last_viewed = at and no unread mentions (no event: the client that viewed the
 * channel does not show collapsed threads). Returns how many threads changed.
 */
export async function markChannelThreadsRead(deps: ViewDeps, userId: string, channels: readonly Channel[], at: number): Promise<number> {
  if (channels.length === 0) return 0;
  const inChannels = new Set(channels.map((c) => c.id));
  const teams = [...new Set(channels.map((c) => c.team_id))];
  const memberships = (await deps.threads.listFollowing(userId, teams)).filter((m) => inChannels.has(m.channel_id));
  if (memberships.length === 0) return 0;
  const roots = new Map((await deps.posts.findByIds(memberships.map((m) => m.post_id))).map((p) => [p.id, p]));
  let changed = 0;
  for (const membership of memberships) {
    const root = roots.get(membership.post_id);
    if (!root || root.last_reply_at <= membership.last_viewed) continue;
    await deps.threads.maintain(membership, { last_viewed: at, unread_mentions: 0, last_updated: at });
    changed += 1;
  }
  return changed;
}
