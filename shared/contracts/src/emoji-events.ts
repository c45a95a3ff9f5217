import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `emoji.added` on realtime.events (posts → every realtime replica): a custom emoji was created. Realtime
 * sends `emoji_added` `{emoji: <Emoji JSON string>}` to every connection, as the reference's CreateEmoji
 * (no team, channel or user in its broadcast).
 */
export interface EmojiAddedPayload {
  readonly emoji: {
    readonly id: string;
    readonly create_at: number;
    readonly update_at: number;
    readonly delete_at: number;
    readonly creator_id: string;
    readonly name: string;
  };
}

export type EmojiAddedEvent = Envelope<'emoji.added', EmojiAddedPayload>;

export const emojiAddedPayloadSchema = Joi.object<EmojiAddedPayload>({
  emoji: Joi.object({
    id: Joi.string().min(1).max(64).required(),
    create_at: Joi.number().integer().required(),
    update_at: Joi.number().integer().required(),
    delete_at: Joi.number().integer().required(),
    creator_id: Joi.string().allow('').max(64).required(),
    name: Joi.string().min(1).max(64).required(),
  })
    .unknown(true)
    .required(),
}).unknown(true);
