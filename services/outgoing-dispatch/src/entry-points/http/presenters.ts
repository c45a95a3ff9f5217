import type { WireDelivery, WireOutgoingHook } from '@switchyard/contracts/wire';
import type { Delivery, OutgoingHook } from '../../domain/entities';
import { ed25519PublicKey } from '../../domain/signing/ed25519';

/** OutgoingWebhook JSON (mattermost-wire.md §10) plus the extensions (signing, `disabled_at`, event types, bot). */
export function presentHook(hook: OutgoingHook): WireOutgoingHook {
  return {
    id: hook.id,
    token: hook.token,
    create_at: hook.createAt,
    update_at: hook.updateAt,
    delete_at: hook.deleteAt,
    creator_id: hook.creatorId,
    channel_id: hook.channelId,
    team_id: hook.teamId,
    trigger_words: hook.triggerWords,
    trigger_when: hook.triggerWhen,
    callback_urls: hook.callbackUrls,
    display_name: hook.displayName,
    description: hook.description,
    content_type: hook.contentType,
    username: hook.username,
    icon_url: hook.iconUrl,
    signing_secret: hook.signingSecret,
    disabled_at: hook.disabledAt,
    signing_algorithm: hook.signingAlgorithm,
    signing_public_key: hook.signingAlgorithm === 'ed25519' && hook.signingKey !== '' ? ed25519PublicKey(hook.signingKey) : '',
    event_types: hook.eventTypes,
    bot_user_id: hook.botUserId,
  };
}

/** A delivery log entry (README "Delivery log"), plus the last attempt's latency. */
export function presentDelivery(d: Delivery): WireDelivery {
  return {
    id: d.id,
    hook_id: d.hookId,
    post_id: d.postId,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    last_latency_ms: d.lastLatencyMs,
    create_at: d.createAt,
    update_at: d.updateAt,
    next_attempt_at: d.nextAttemptAt,
    event_type: d.eventType ?? 'posted',
  };
}
