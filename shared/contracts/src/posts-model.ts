/**
 * Wire shapes shared by posts, incoming-hooks and outgoing-dispatch. `WirePost` is Mattermost's Post JSON
 * (mattermost-wire.md §7) as posts stores it: `props.attachments[].actions[].integration` is still present
 * here (internal use only); posts strips it from everything a client receives.
 */
export interface WirePostPriority {
  readonly priority?: string | null;
  readonly requested_ack?: boolean | null;
  readonly persistent_notifications?: boolean | null;
}

export interface WirePost {
  readonly id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly edit_at: number;
  readonly delete_at: number;
  readonly is_pinned: boolean;
  readonly user_id: string;
  readonly channel_id: string;
  readonly root_id: string;
  readonly original_id: string;
  readonly message: string;
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
  readonly hashtags: string;
  readonly file_ids: readonly string[];
  readonly pending_post_id: string;
  readonly reply_count: number;
  readonly last_reply_at: number;
  readonly participants: null;
  readonly has_reactions?: boolean;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A channel as other services need it (internal only). `team_name` is `""` for DMs and GMs. */
export interface InternalChannel {
  readonly id: string;
  readonly team_id: string;
  readonly team_name: string;
  /** `O` open, `P` private, `D` direct, `G` group. */
  readonly type: 'O' | 'P' | 'D' | 'G';
  readonly name: string;
  readonly display_name: string;
  readonly creator_id: string;
  readonly delete_at: number;
}

export interface InternalChannelMember {
  readonly channel_id: string;
  readonly user_id: string;
  readonly roles: string;
}

/**
 * Who made a post: `api` (a client or bot via REST), a webhook, an interactive action, the system, or a
 * slash command's `in_channel` answer (`command`: posted as the invoking user, fires outgoing webhooks).
 */
export type PostSource = 'api' | 'incoming_webhook' | 'outgoing_webhook' | 'action' | 'system' | 'command';

export interface PostAuthor {
  readonly id: string;
  readonly username: string;
  readonly is_bot: boolean;
}
