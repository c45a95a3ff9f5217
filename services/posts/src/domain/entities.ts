import type { PostSource, PostsEventType, WirePost } from '@switchyard/contracts';

/**
 * Entities are stored in the reference's wire shape (snake_case): the Channel, ChannelMember, Post and
 * Reaction JSON of mattermost-wire.md §6, §7 and §12, so the shared contracts (WirePost, InternalChannel)
 * and the stored documents are the same objects. Presenters only remove internal fields.
 */
export type ChannelType = 'O' | 'P' | 'D' | 'G';

export interface Channel {
  readonly id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  /** `""` for DMs and GMs. */
  readonly team_id: string;
  /** The team's name when the channel was created (internal: channel events and the internal API). */
  readonly team_name: string;
  readonly type: ChannelType;
  readonly display_name: string;
  readonly name: string;
  readonly header: string;
  readonly purpose: string;
  readonly last_post_at: number;
  readonly total_msg_count: number;
  readonly total_msg_count_root: number;
  readonly last_root_post_at: number;
  readonly extra_update_at: number;
  readonly creator_id: string;
}

export type ChannelChanges = Partial<Omit<Channel, 'id' | 'team_id' | 'create_at'>>;

export interface ChannelMember {
  readonly channel_id: string;
  readonly user_id: string;
  readonly scheme_user: boolean;
  readonly scheme_admin: boolean;
  readonly explicit_roles: string;
  readonly last_viewed_at: number;
  readonly msg_count: number;
  readonly mention_count: number;
  /** Mentions in root posts since the member last viewed the channel (absent on memberships never mentioned or viewed since). */
  readonly mention_count_root?: number;
  /** Root posts counted when the member last viewed the channel (absent on memberships never viewed). */
  readonly msg_count_root?: number;
  /** Mentions by urgent posts (post priority `urgent`) since the member last viewed the channel (absent until the first). */
  readonly urgent_mention_count?: number;
  /** Notification settings the member changed (`PUT .../notify_props`); absent keys answer the defaults (channel-notify-props.ts). */
  readonly notify_props?: Readonly<Record<string, string>>;
  readonly last_update_at: number;
  readonly create_at: number;
}

/** `channel_user`, plus `channel_admin` for scheme admins, plus explicit roles. */
export function channelMemberRoles(member: Pick<ChannelMember, 'scheme_user' | 'scheme_admin' | 'explicit_roles'>): string {
  const roles: string[] = [];
  if (member.scheme_user) roles.push('channel_user');
  if (member.scheme_admin) roles.push('channel_admin');
  if (member.explicit_roles !== '') roles.push(...member.explicit_roles.split(' ').filter(Boolean));
  return roles.join(' ');
}

/** An event waiting in the post's outbox (written with the post, cleared once the bus acknowledged it). */
export interface PendingEvent {
  /** The envelope id, deterministic per post event (`<post_id>:created`), so redelivery is recognisable. */
  readonly id: string;
  readonly type: PostsEventType;
  readonly time: number;
  readonly source: PostSource;
  /** reaction.* events: the reaction and who made it. */
  readonly reaction?: Reaction;
  /** file.attached: the file (its info is read from the post's `metadata.files` when published). */
  readonly file_id?: string;
  /**
   * The trace context (W3C `traceparent`/`tracestate`) of the message that asked for the event, when it
   * is not the context the relay publishes in (commands handled in a batch): sent as the event's headers,
   * so the event continues that message's trace, also when the outbox sweep sends it after a restart.
   */
  readonly trace?: Readonly<Record<string, string>>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A post as stored: the wire Post (integrations included) plus its outbox. */
export interface StoredPost extends Mutable<Omit<WirePost, 'props' | 'file_ids' | 'metadata' | 'has_reactions'>> {
  props: Record<string, unknown>;
  file_ids: string[];
  has_reactions: boolean;
  metadata?: Record<string, unknown>;
  /**
   * The incoming hook (its key, a secret) that made the post: lets reaction notifications find the hook.
   * Internal: never in a client answer or an event's `post` (reaction events carry it beside the post).
   */
  incoming_hook_id?: string;
  /** Outbox: events not yet acknowledged by the bus. Never leaves the service. */
  pending_events: PendingEvent[];
}

export type PostChanges = Partial<Omit<StoredPost, 'id' | 'channel_id' | 'user_id' | 'create_at' | 'pending_events'>>;

export interface Reaction {
  readonly user_id: string;
  readonly post_id: string;
  readonly emoji_name: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  readonly remote_id: string;
  readonly channel_id: string;
}
