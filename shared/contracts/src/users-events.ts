import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * users.events. Every payload names the user it concerns, so caches keyed by user (the gateway's
 * token cache) can drop entries at once.
 */
export type UsersEventType =
  | 'user.created'
  | 'user.updated'
  | 'user.deactivated'
  | 'user.activated'
  | 'user.roles_updated'
  | 'session.revoked'
  | 'token.revoked'
  | 'token.disabled'
  | 'bot.created'
  | 'bot.updated'
  | 'bot.disabled'
  | 'bot.enabled';

export interface UsersEventPayload {
  readonly userId: string;
  readonly username?: string;
  readonly isBot?: boolean;
  readonly sessionIds?: readonly string[];
  readonly tokenIds?: readonly string[];
}

export type UsersEvent = Envelope<UsersEventType, UsersEventPayload>;

export const usersEventPayloadSchema = Joi.object({
  userId: Joi.string().required(),
  username: Joi.string(),
  isBot: Joi.boolean(),
  sessionIds: Joi.array().items(Joi.string()),
  tokenIds: Joi.array().items(Joi.string()),
});
