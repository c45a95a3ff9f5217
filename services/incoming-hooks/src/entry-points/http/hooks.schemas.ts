import { Joi } from '@switchyard/validation';

const text = Joi.string().allow('');

/** IncomingWebhook JSON as clients send it on create and update (extra fields are ignored). */
export const hookBody = Joi.object({
  id: text,
  create_at: Joi.number(),
  update_at: Joi.number(),
  delete_at: Joi.number(),
  user_id: text,
  channel_id: text,
  team_id: text,
  display_name: text,
  description: text,
  username: text,
  icon_url: text,
  channel_locked: Joi.boolean(),
  reaction_notifications: Joi.boolean(),
  // null is a value here (no transform), not "not set" as elsewhere: the rule is unset on this key.
  transform: Joi.alternatives(Joi.any().valid(null).empty(), Joi.object({ template: Joi.string().max(50), jsonata: Joi.string().allow('') }).xor('template', 'jsonata')).empty(),
  only_events: Joi.array().items(Joi.string().allow('')),
  exclude_events: Joi.array().items(Joi.string().allow('')),
  transform_secret: text,
})
  .unknown(true)
  .required();

export interface HookBody {
  id?: string;
  user_id?: string;
  channel_id?: string;
  team_id?: string;
  display_name?: string;
  description?: string;
  username?: string;
  icon_url?: string;
  channel_locked?: boolean;
  reaction_notifications?: boolean;
  transform?: { template: string } | { jsonata: string } | null;
  only_events?: string[];
  exclude_events?: string[];
  transform_secret?: string;
}
