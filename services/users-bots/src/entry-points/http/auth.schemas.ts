import { Joi } from '@switchyard/validation';

const text = Joi.string().allow('').max(4096);

/** `POST /users/login`: every field a string, as the reference's map[string]string. */
export const loginBody = Joi.object({
  login_id: text,
  id: text,
  password: text.default(''),
  token: text,
  device_id: text,
  deviceId: text,
  ldap_only: text,
}).required();
