import { Joi } from '@switchyard/validation';

const text = Joi.string().allow('').max(4096);

/** BotPatch: every field optional (create requires a valid username, checked by the domain). */
export const botPatchBody = Joi.object({
  username: text,
  display_name: text,
  description: text,
}).required();

/** UserPatch for convert_to_user: a non-empty password is required. */
export const convertBotToUserBody = Joi.object({
  password: Joi.string().max(4096).required(),
  username: text,
  email: text,
  nickname: text,
  first_name: text,
  last_name: text,
  position: text,
}).required();
