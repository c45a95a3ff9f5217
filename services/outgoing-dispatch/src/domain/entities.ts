import { DEFAULT_OUTGOING_EVENT_TYPES } from '@switchyard/contracts/wire';

/** An outgoing webhook as stored (mattermost-wire.md §10 plus Switchyard's signing and disable fields). */
export interface OutgoingHook {
  readonly id: string;
  readonly token: string;
  readonly createAt: number;
  readonly updateAt: number;
  readonly deleteAt: number;
  readonly creatorId: string;
  /** `""`: every public channel of the team (trigger words required). */
  readonly channelId: string;
  readonly teamId: string;
  readonly triggerWords: readonly string[];
  /** 0: the first word equals a trigger word; 1: it starts with one. */
  readonly triggerWhen: number;
  readonly callbackUrls: readonly string[];
  readonly displayName: string;
  readonly description: string;
  readonly contentType: string;
  readonly username: string;
  readonly iconUrl: string;
  /** `whsec_` + base64 of 32 random bytes. */
  readonly signingSecret: string;
  /** The secret before the last rotation; it keeps signing until `previousSecretExpiresAt`. */
  readonly previousSigningSecret: string;
  readonly previousSecretExpiresAt: number;
  /** ms; 0 when enabled. Set by a `410 Gone` answer. */
  readonly disabledAt: number;
  /** `hmac-sha256` (`v1` with the signing secrets) or `ed25519` (`v1a` with the signing keys). */
  readonly signingAlgorithm: HookSigningAlgorithm;
  /** `whsk_` + base64 of the Ed25519 seed (`""` until the hook first uses ed25519); never returned. */
  readonly signingKey: string;
  /** The key before the last rotation; it keeps signing until `previousSecretExpiresAt`. */
  readonly previousSigningKey: string;
  /** What the hook is told about (never empty; `posted` is the reference's outgoing webhook). */
  readonly eventTypes: readonly string[];
  /** A bot hook: the bot whose channels (DMs, mentions, its channel) it hears; `""` for the legacy hooks. */
  readonly botUserId: string;
}

export type HookSigningAlgorithm = 'hmac-sha256' | 'ed25519';

export const DEFAULT_EVENT_TYPES: readonly string[] = DEFAULT_OUTGOING_EVENT_TYPES;

/** Whether the hook's deliveries are ordered per (channel, URL): it hears more than the reference's `posted`. */
export function isOrderedHook(hook: Pick<OutgoingHook, 'eventTypes'>): boolean {
  return hook.eventTypes.length > 1 || hook.eventTypes[0] !== 'posted';
}

/** Fields added after hooks were first stored, filled in when an older record is read. */
export function withHookDefaults(hook: OutgoingHook): OutgoingHook {
  const h = hook as Partial<OutgoingHook> & OutgoingHook;
  if (h.signingAlgorithm !== undefined && h.eventTypes !== undefined && h.botUserId !== undefined && h.signingKey !== undefined && h.previousSigningKey !== undefined) return hook;
  return {
    ...hook,
    signingAlgorithm: h.signingAlgorithm ?? 'hmac-sha256',
    signingKey: h.signingKey ?? '',
    previousSigningKey: h.previousSigningKey ?? '',
    eventTypes: h.eventTypes && h.eventTypes.length > 0 ? h.eventTypes : DEFAULT_EVENT_TYPES,
    botUserId: h.botUserId ?? '',
  };
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dead';

/** One (post, hook, callback URL) delivery, durable across restarts. */
export interface Delivery {
  /** Deterministic from (post, hook, URL); also the Standard Webhooks `webhook-id`. */
  readonly id: string;
  readonly hookId: string;
  readonly postId: string;
  /** Where a reply goes: the post's channel, and the thread root for `response_type: comment`. */
  readonly channelId: string;
  readonly threadRootId: string;
  readonly url: string;
  readonly contentType: string;
  /** The request body, built once when the post fired the hook (the same bytes on every retry). */
  readonly body: string;
  readonly status: DeliveryStatus;
  /** Attempts made in total. */
  readonly attempts: number;
  /** Attempts since the delivery was (re)queued: indexes RetryBackoffSeconds. */
  readonly tries: number;
  readonly lastStatusCode: number;
  readonly lastError: string;
  readonly lastLatencyMs: number;
  readonly createAt: number;
  readonly updateAt: number;
  /** ms; when the next attempt is due (0 when none will be made). */
  readonly nextAttemptAt: number;
  /** The instance attempting it now, until `claimUntil` (ms). */
  readonly claimedBy: string;
  readonly claimUntil: number;
  /** What fired it (`posted`, `post_edited`, ...); older records without one were `posted`. */
  readonly eventType?: string;
  /**
   * Whether its hook was ordered when it fired (isOrderedHook): only these wait behind, and are waited for by,
   * the other deliveries of their (hook, channel, URL). Records stored before it existed have none and count
   * as ordered (they waited as before).
   */
  readonly ordered?: boolean;
}

/** Whether the delivery takes part in its chain's order (see Delivery.ordered). */
export function isOrderedDelivery(delivery: Pick<Delivery, 'ordered'>): boolean {
  return delivery.ordered !== false;
}

export type DeliveryChanges = Partial<Omit<Delivery, 'id' | 'hookId' | 'postId' | 'createAt'>>;
