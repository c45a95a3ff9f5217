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
  /** Extension (Hook transform): `null`, `{template}` or `{jsonata}`. */
  readonly transform?: { readonly template: string } | { readonly jsonata: string } | null;
  readonly only_events?: readonly string[];
  readonly exclude_events?: readonly string[];
  /** Write-only: masked when set, '' when not. */
  readonly transform_secret?: string;
}

/** OutgoingWebhook JSON (mattermost-wire.md §10) plus the extensions (signing, `disabled_at`, event types, bot). */
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
  /** `hmac-sha256` (`v1`) or `ed25519` (`v1a`). */
  readonly signing_algorithm: 'hmac-sha256' | 'ed25519';
  /** `whpk_` + base64 of the Ed25519 public key; `""` for hmac-sha256. */
  readonly signing_public_key: string;
  readonly event_types: readonly string[];
  /** A bot hook's bot; `""` otherwise. */
  readonly bot_user_id: string;
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
  /** What fired it: `posted`, `post_edited`, ... */
  readonly event_type: string;
}
