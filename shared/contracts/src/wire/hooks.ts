/** IncomingWebhook JSON (mattermost-wire.md §9) plus `reaction_notifications`. */
export interface WireIncomingHook {
  readonly id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  readonly user_id: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly display_name: string;
  readonly description: string;
  readonly username: string;
  readonly icon_url: string;
  readonly channel_locked: boolean;
  readonly reaction_notifications: boolean;
}

/** OutgoingWebhook JSON (mattermost-wire.md §10) plus `signing_secret` and `disabled_at`. */
export interface WireOutgoingHook {
  readonly id: string;
  readonly token: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  readonly creator_id: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly trigger_words: readonly string[];
  readonly trigger_when: number;
  readonly callback_urls: readonly string[];
  readonly display_name: string;
  readonly description: string;
  readonly content_type: string;
  readonly username: string;
  readonly icon_url: string;
  readonly signing_secret: string;
  readonly disabled_at: number;
}

/** A delivery log entry (`GET /hooks/outgoing/{id}/deliveries`), plus the last attempt's latency. */
export interface WireDelivery {
  readonly id: string;
  readonly hook_id: string;
  readonly post_id: string;
  readonly url: string;
  readonly status: 'pending' | 'delivered' | 'failed' | 'dead';
  readonly attempts: number;
  readonly last_status_code: number;
  readonly last_error: string;
  readonly last_latency_ms: number;
  readonly create_at: number;
  readonly update_at: number;
  readonly next_attempt_at: number;
}
