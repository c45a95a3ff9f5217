import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * `preferences.changed` / `preferences.deleted` on realtime.events (users-bots → every realtime replica,
 * keyed by the user id): realtime sends `preferences_changed` / `preferences_deleted`
 * `{preferences: <JSON string of the list>}` to that user's own connections, as the reference.
 */
export interface PreferencesEventPayload {
  readonly user_id: string;
  readonly preferences: readonly { readonly user_id: string; readonly category: string; readonly name: string; readonly value: string }[];
}

export type PreferencesChangedEvent = Envelope<'preferences.changed', PreferencesEventPayload>;
export type PreferencesDeletedEvent = Envelope<'preferences.deleted', PreferencesEventPayload>;

const pref = Joi.object({ user_id: Joi.string().max(64).required(), category: Joi.string().allow('').max(64).required(), name: Joi.string().allow('').max(64).required(), value: Joi.string().allow('').max(100_000).required() }).unknown(true);

export const preferencesEventPayloadSchema = Joi.object<PreferencesEventPayload>({
  user_id: Joi.string().min(1).max(64).required(),
  preferences: Joi.array().items(pref).max(1_000).required(),
}).unknown(true);
