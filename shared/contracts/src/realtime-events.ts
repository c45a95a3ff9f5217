import Joi from 'joi';
import type { Envelope } from './envelope';
import type { WirePost } from './posts-model';

/**
 * realtime.events (any service → every realtime replica): what reaches WebSocket clients without being
 * stored anywhere (mattermost-wire-2.md §1.6). Keyed by the channel id for `typing`, by the target user
 * id otherwise. Every realtime replica reads the whole topic (one consumer group per replica) and
 * delivers to its own connections.
 *
 * - `ephemeral.post`: an `ephemeral_message` event for exactly one user (slash-command answers, action
 *   `ephemeral_text`, `POST /posts/ephemeral`). `post` is the post as the client will see it: type
 *   `system_ephemeral`, a fresh id, `create_at` now, `user_id` = the target, no action integrations.
 * - `dialog.open`: an `open_dialog` event for the user encoded in the trigger id; `dialog` is the
 *   reference's `{trigger_id, url, dialog:{…}}` object (realtime sends it as a JSON string).
 * - `typing`: a `typing` event for the channel's members except the sender (the `user_typing` action).
 */
export type RealtimeEventType = 'ephemeral.post' | 'dialog.open' | 'typing';

export interface EphemeralPostPayload {
  /** The only user who receives it (on every connection of theirs; channel membership is not checked). */
  readonly user_id: string;
  /** Client-visible: no `props.attachments[].actions[].integration`. */
  readonly post: WirePost;
}

export interface OpenDialogPayload {
  readonly user_id: string;
  readonly dialog: {
    readonly trigger_id: string;
    readonly url: string;
    readonly dialog: Readonly<Record<string, unknown>>;
  };
}

export interface TypingPayload {
  readonly channel_id: string;
  readonly user_id: string;
  /** `""` when not in a thread. */
  readonly parent_id: string;
}

export type EphemeralPostEvent = Envelope<'ephemeral.post', EphemeralPostPayload>;
export type OpenDialogEvent = Envelope<'dialog.open', OpenDialogPayload>;
export type TypingEvent = Envelope<'typing', TypingPayload>;
export type RealtimeEvent = EphemeralPostEvent | OpenDialogEvent | TypingEvent;

const id = Joi.string().min(1).max(64);

export const ephemeralPostPayloadSchema = Joi.object<EphemeralPostPayload>({
  user_id: id.required(),
  post: Joi.object({
    id: id.required(),
    channel_id: Joi.string().allow('').required(),
    user_id: id.required(),
    message: Joi.string().allow('').required(),
    type: Joi.string().allow('').required(),
    props: Joi.object().required(),
    create_at: Joi.number().required(),
  })
    .unknown(true)
    .required(),
}).unknown(true);

export const openDialogPayloadSchema = Joi.object<OpenDialogPayload>({
  user_id: id.required(),
  dialog: Joi.object({ trigger_id: Joi.string().required(), url: Joi.string().allow('').required(), dialog: Joi.object().unknown(true).required() })
    .unknown(true)
    .required(),
}).unknown(true);

export const typingPayloadSchema = Joi.object<TypingPayload>({
  channel_id: id.required(),
  user_id: id.required(),
  parent_id: Joi.string().allow('').max(64).required(),
}).unknown(true);

/** The message to publish on realtime.events for one ephemeral post (keyed by the target user). */
export function ephemeralPostMessage(event: EphemeralPostEvent): { key: string; value: EphemeralPostEvent } {
  return { key: event.payload.user_id, value: event };
}
