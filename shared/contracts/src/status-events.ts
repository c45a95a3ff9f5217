import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `status.changed` on realtime.events (keyed by the user id): a user's status changed through one realtime
 * replica (`PUT /users/{id}/status`); every replica sends `status_change` `{status, user_id}` to that user's
 * own connections (mattermost-wire-3.md §3.1).
 */
export interface StatusChangedPayload {
  readonly user_id: string;
  readonly status: string;
}

export type StatusChangedEvent = Envelope<'status.changed', StatusChangedPayload>;

export const statusChangedPayloadSchema = Joi.object<StatusChangedPayload>({
  user_id: Joi.string().min(1).max(64).required(),
  status: Joi.string().valid('online', 'away', 'dnd', 'offline', 'ooo').required(),
}).unknown(true);
