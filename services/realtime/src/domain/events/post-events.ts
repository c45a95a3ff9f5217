import { clientPost, postMentionedNames, type PostEventPayload, type PostsEvent, type ReactionEventPayload } from '@switchyard/contracts';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { MembershipCache } from '../membership-cache';
import type { UserSource } from '../ports';
import { broadcast, type WsEvent } from '../ws-event';
import { hasChannelWide, mentions, NO_CHANNEL_WIDE, type ChannelWide } from './mentions';

export interface PostEventsDeps {
  readonly membership: Pick<MembershipCache, 'channelMembers'>;
  readonly users: UserSource;
  /** The username of a connected user ('' when unknown), for mentions. */
  readonly usernameOf: (userId: string) => string;
  /** Those of the ids whose status is exactly `online` (who `@here` mentions). Absent: `@here` mentions nobody. */
  readonly onlineAmong?: (userIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** Post types whose channel-wide words never mention (the reference's allowChannelMentions). */
const NO_CHANNEL_MENTION_TYPES = new Set(['system_header_change', 'system_purpose_change']);
/** From this many channel members on, channel-wide words mention nobody (TeamSettings.MaxNotificationsPerChannel's default). */
const MAX_NOTIFICATIONS_PER_CHANNEL = 1_000;

/**
 * What `@channel`, `@all` and `@here` may do in this post, as the reference's allowChannelMentions: not in a
 * header or purpose change, not in a channel of 1,000 members or more, and only when the author has
 * use_channel_mentions there (every channel role grants it, so a member has it; someone outside the channel,
 * such as the creator of an incoming webhook, only through their system roles). `@here` reaches the members
 * whose status is online.
 */
async function channelWideOf(deps: PostEventsDeps, payload: PostEventPayload, names: ReadonlySet<string>): Promise<ChannelWide> {
  const post = payload.post;
  if (!hasChannelWide(names) || NO_CHANNEL_MENTION_TYPES.has(post.type)) return NO_CHANNEL_WIDE;
  const members = await deps.membership.channelMembers(payload.channel.id);
  if (!members || members.size >= MAX_NOTIFICATIONS_PER_CHANNEL) return NO_CHANNEL_WIDE;
  if (!members.has(post.user_id)) {
    const [author] = await deps.users.usersByIds([post.user_id]);
    if (!hasPermission(author?.roles, Permissions.useChannelMentions)) return NO_CHANNEL_WIDE;
  }
  const online = names.has('here') && deps.onlineAmong ? await deps.onlineAmong([...members]) : NO_CHANNEL_WIDE.online;
  return { allowed: true, online };
}

/** The reference's `channel_display_name` of `posted`: `@sender` in a DM, sorted member usernames in a GM. */
async function channelDisplayName(deps: PostEventsDeps, payload: PostEventPayload): Promise<string> {
  const channel = payload.channel;
  if (channel.type === 'D') return `@${payload.author.username}`;
  if (channel.type !== 'G') return channel.display_name;
  const members = await deps.membership.channelMembers(channel.id);
  const users = await deps.users.usersByIds([...(members ?? [])]);
  return users
    .map((u) => u.username)
    .sort()
    .join(', ');
}

/** `sender_name`: `@username`; a webhook's override name outside DMs; "System" for system messages. */
function senderName(payload: PostEventPayload): string {
  const post = payload.post;
  if (post.type.startsWith('system_')) return 'System';
  const override = post.props.override_username;
  if (payload.from_webhook && payload.channel.type !== 'D' && typeof override === 'string' && override !== '') return override;
  return `@${payload.author.username}`;
}

/**
 * Who a `posted` event mentions, per receiver: the ids posts counted the mentions on when the event carries them (keywords,
 * first names and notify props applied there, read from Markdown text only, as the reference's mentionedUsersList). posts'
 * outbox puts them on every `post.created`, its sweep's too (read again there when the write's were lost); only when that
 * reading failed as well, or for an event of an older posts, are the post's `@names` read here from the raw text.
 */
async function mentionedReceiver(deps: PostEventsDeps, payload: PostEventPayload): Promise<((userId: string) => boolean) | undefined> {
  if (payload.mentions) {
    const mentioned = new Set(payload.mentions);
    return mentioned.size === 0 ? undefined : (userId) => mentioned.has(userId);
  }
  const post = payload.post;
  const names = postMentionedNames(post);
  if (names.size === 0) return undefined;
  const channelWide = await channelWideOf(deps, payload, names);
  return (userId) => mentions(names, { id: userId, username: deps.usernameOf(userId) }, post.user_id, channelWide);
}

async function posted(deps: PostEventsDeps, payload: PostEventPayload): Promise<WsEvent> {
  const post = payload.post;
  const mentioned = await mentionedReceiver(deps, payload);
  const files = post.file_ids.length > 0;
  const metadataFiles = (post.metadata?.files ?? []) as readonly { mime_type?: unknown }[];
  const image = metadataFiles.some((f) => typeof f.mime_type === 'string' && f.mime_type.startsWith('image/'));
  return {
    event: 'posted',
    data: {
      channel_display_name: await channelDisplayName(deps, payload),
      channel_name: payload.channel.name,
      channel_type: payload.channel.type,
      post: JSON.stringify(clientPost(post)),
      sender_name: senderName(payload),
      set_online: payload.source === 'api' || payload.source === 'command',
      team_id: payload.channel.type === 'D' || payload.channel.type === 'G' ? '' : (payload.team?.id ?? payload.channel.team_id),
      ...(files ? { otherFile: 'true' } : {}),
      ...(image ? { image: 'true' } : {}),
    },
    broadcast: broadcast({ channel_id: payload.channel.id }),
    dataFor: mentioned === undefined ? undefined : (userId) => (mentioned(userId) ? { mentions: JSON.stringify([userId]) } : undefined),
  };
}

function reaction(type: 'reaction_added' | 'reaction_removed', payload: ReactionEventPayload): WsEvent {
  const r = payload.reaction as ReactionEventPayload['reaction'] & Record<string, unknown>;
  const wire = { update_at: r.create_at, delete_at: 0, remote_id: '', ...r, channel_id: payload.channel.id };
  return { event: type, data: { reaction: JSON.stringify(wire) }, broadcast: broadcast({ channel_id: payload.channel.id }) };
}

/** posts.events → WebSocket events (mattermost-wire-2.md §1.6). */
export async function fromPostsEvent(deps: PostEventsDeps, event: PostsEvent): Promise<WsEvent[]> {
  switch (event.type) {
    case 'post.created':
      return [await posted(deps, event.payload)];
    case 'post.updated':
      return [{ event: 'post_edited', data: { post: JSON.stringify(clientPost(event.payload.post)) }, broadcast: broadcast({ channel_id: event.payload.channel.id }) }];
    case 'post.deleted': {
      // The reference sends a sanitised copy to non-admins and a sensitive one, with `delete_by`, to admins;
      // its `post` is the post as read before the delete, so without the `deleteBy` prop the delete wrote.
      const { deleteBy, ...props } = event.payload.post.props;
      const post = JSON.stringify(clientPost({ ...event.payload.post, props }));
      const channelId = event.payload.channel.id;
      return [
        { event: 'post_deleted', data: { post }, broadcast: broadcast({ channel_id: channelId, contains_sanitized_data: true }) },
        { event: 'post_deleted', data: { delete_by: typeof deleteBy === 'string' ? deleteBy : '', post }, broadcast: broadcast({ channel_id: channelId, contains_sensitive_data: true }) },
      ];
    }
    case 'reaction.added':
      return [reaction('reaction_added', event.payload)];
    case 'reaction.removed':
      return [reaction('reaction_removed', event.payload)];
    default:
      return [];
  }
}
