import { Joi } from '@switchyard/validation';

const id = Joi.string().pattern(/^[a-z0-9]{26}$/);

/** `UserSearch` (mattermost-wire-3.md §2.5); role and group filters are accepted and not applied. */
export const searchUsersBody = Joi.object({
  term: Joi.string().allow('').max(1_000),
  team_id: Joi.alternatives(id, Joi.string().valid('')),
  not_in_team_id: Joi.alternatives(id, Joi.string().valid('')),
  in_channel_id: Joi.alternatives(id, Joi.string().valid('')),
  not_in_channel_id: Joi.alternatives(id, Joi.string().valid('')),
  allow_inactive: Joi.boolean(),
  without_team: Joi.boolean(),
  limit: Joi.number().integer(),
})
  .unknown(true)
  .required();

export interface SearchUsersBody {
  term?: string;
  team_id?: string;
  not_in_team_id?: string;
  in_channel_id?: string;
  not_in_channel_id?: string;
  allow_inactive?: boolean;
  without_team?: boolean;
  limit?: number;
}
