import { Joi } from '@switchyard/validation';

const text = Joi.string().allow('').max(4096);

export const createTeamBody = Joi.object({
  name: text.default(''),
  display_name: text.default(''),
  type: text.default(''),
  description: text,
  email: text,
  company_name: text,
  allowed_domains: text,
  allow_open_invite: Joi.boolean(),
}).required();

export const addTeamMemberBody = Joi.object({
  team_id: Joi.string().max(64),
  user_id: Joi.string().max(64).required(),
}).required();
