import { Joi } from '@switchyard/validation';

const text = Joi.string().allow('').max(4096);
const stringMap = Joi.object().pattern(Joi.string().max(256), Joi.string().allow('').max(4096));

/** `POST /users` body: types only (no coercion); content rules live in the domain. Unknown keys are dropped. */
export const createUserBody = Joi.object({
  username: text.default(''),
  email: text.default(''),
  password: text,
  nickname: text,
  first_name: text,
  last_name: text,
  position: text,
  locale: text,
  props: stringMap,
  notify_props: stringMap,
  timezone: stringMap,
  auth_service: text,
  auth_data: text.allow(null),
  email_verified: Joi.boolean(),
}).required();

export const activeBody = Joi.object({ active: Joi.boolean().required() }).required();

export const rolesBody = Joi.object({ roles: Joi.string().allow('').max(1024).required() }).required();

export const idListBody = Joi.array().items(Joi.string().max(64)).required();

export const usernameListBody = Joi.array().items(Joi.string().max(128)).required();

export const revokeSessionBody = Joi.object({ session_id: Joi.string().max(64).required() }).required();
