import { postMentionedNames } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';
import type { Deps, MentionTargets } from '../ports';
import { mayMentionChannel } from '../threads/follow-on-reply';
import { ignoresChannelMentions } from './channel-notify-props';

const CHANNEL_WIDE = new Set(['channel', 'all', 'here']);
/** At most this many distinct `@names` of one post are looked up (bounded work per post). */
const MAX_NAMES = 50;
/** From this many members on, `@channel`, `@all` and `@here` mention nobody (the reference's MaxNotificationsPerChannel default). */
export const MAX_NOTIFIED_MEMBERS = 1_000;

/** Who a post mentions as far as its text and channel tell, before any look-up. */
export interface MentionPlan {
  /** Ids mentioned without a look-up: the other user of a direct channel. */
  readonly direct: readonly string[];
  /** `@username`s to look up (channel-wide words excluded). */
  readonly names: readonly string[];
  /** `@channel` or `@all`. */
  readonly everyone: boolean;
  readonly here: boolean;
}

type MentioningPost = Pick<StoredPost, 'message' | 'props' | 'user_id'>;

/** The reference's Post.IsUrgent: its `metadata.priority.priority` is `urgent` (only root posts may carry a priority). */
export function isUrgent(post: Pick<StoredPost, 'metadata'>): boolean {
  const priority = post.metadata?.priority;
  return typeof priority === 'object' && priority !== null && (priority as { priority?: unknown }).priority === 'urgent';
}

/**
 * The reference's rules (sendNotifications, getExplicitMentions): in a direct channel every post mentions
 * the other user (a self-DM nobody); elsewhere (group channels included) the `@names` of the message and
 * its attachments' texts. Undefined when the post mentions nobody (no look-up, no write).
 */
export function mentionPlan(channel: Pick<Channel, 'type' | 'name'>, post: MentioningPost): MentionPlan | undefined {
  if (channel.type === 'D') {
    const other = channel.name.split('__').find((id) => id !== post.user_id);
    return other ? { direct: [other], names: [], everyone: false, here: false } : undefined;
  }
  const all = postMentionedNames(post);
  if (all.size === 0) return undefined;
  const names = [...all].filter((n) => !CHANNEL_WIDE.has(n)).slice(0, MAX_NAMES);
  return { direct: [], names, everyone: all.has('channel') || all.has('all'), here: all.has('here') };
}

/**
 * A new post counts on its mentioned members (the reference's IncrementMentionCount): `mention_count` + 1, and
 * `mention_count_root` + 1 for a root post. `@username`s count for the members among them; `@channel`/`@all`
 * every member and `@here` the online ones, when the author may use them (allowChannelMentions) and the
 * channel has fewer than 1,000 members, except members whose `ignore_channel_mentions` is `on` unless named
 * (`default` follows the user's `channel` notify prop in the reference; that lives in users-bots and is not looked
 * up here, so `default` does not ignore); the author never. One write; memberships are not read per member
 * (`@here` excepted: it lists the members for their statuses and settings).
 */
export async function countMentions(deps: Deps, post: StoredPost, channel: Channel): Promise<void> {
  const plan = mentionPlan(channel, post);
  if (!plan) return;
  const ids = new Set(plan.direct);
  if (plan.names.length > 0) for (const id of (await deps.userNames.idsByUsernames(plan.names)).values()) ids.add(id);
  let everyoneBut: MentionTargets['everyoneBut'];
  if ((plan.everyone || (plan.here && deps.onlineUsers)) && (await mayMentionChannel(deps, channel, post.user_id))) {
    if (plan.everyone) everyoneBut = { authorId: post.user_id, fewerThan: MAX_NOTIFIED_MEMBERS };
    else if (deps.onlineUsers) {
      const members = await deps.channelMembers.listByChannel(channel.id, { page: 0, perPage: MAX_NOTIFIED_MEMBERS });
      const heeding = members.filter((m) => !ignoresChannelMentions(m));
      if (members.length < MAX_NOTIFIED_MEMBERS && heeding.length > 0) for (const id of await deps.onlineUsers.online(heeding.map((m) => m.user_id))) ids.add(id);
    }
  }
  ids.delete(post.user_id);
  if (ids.size === 0 && !everyoneBut) return;
  await deps.channelMembers.incrementMentions(channel.id, { userIds: [...ids], ...(everyoneBut ? { everyoneBut } : {}) }, post.root_id === '', deps.clock.now(), isUrgent(post));
}
