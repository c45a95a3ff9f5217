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
}
