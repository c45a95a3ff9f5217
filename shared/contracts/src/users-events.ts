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
  | 'bot.enabled'
  /**
   * Team events are keyed by **team id** (so a team's events keep their order); `userId` names the team's
   * creator (team.created) or the user who joined (team.member_added), `teamId` the team. Consumers that
   * only care about users may treat them like any other event about `userId`.
   */
  | 'team.created'
  | 'team.member_added';

export interface UsersEventPayload {
  readonly userId: string;
  readonly username?: string;
  readonly isBot?: boolean;
  readonly sessionIds?: readonly string[];
  readonly tokenIds?: readonly string[];
  /** team.created, team.member_added: the team. */
  readonly teamId?: string;
}

export type UsersEvent = Envelope<UsersEventType, UsersEventPayload>;

export const usersEventPayloadSchema = Joi.object({
  userId: Joi.string().required(),
  username: Joi.string(),
  isBot: Joi.boolean(),
  sessionIds: Joi.array().items(Joi.string()),
  tokenIds: Joi.array().items(Joi.string()),
  teamId: Joi.string(),
});

/** The team events of users.events (keyed by team id). */
export type TeamEventType = Extract<UsersEventType, 'team.created' | 'team.member_added'>;
export const TEAM_EVENT_TYPES: readonly TeamEventType[] = ['team.created', 'team.member_added'];
