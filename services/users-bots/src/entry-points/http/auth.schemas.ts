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

/** The fields `loginBody` knows (read from the schema once, so the two cannot drift apart). */
const LOGIN_FIELDS: ReadonlySet<string> = new Set(Object.keys(loginBody.describe().keys ?? {}));

/**
 * The login body as the reference reads it (MapFromJSON into a map of strings): a body that is not an
 * object counts as empty, and a field that is not a string as absent (so a missing or non-string password
 * is the 400 blank_pwd, not a body error).
 */
export function loginFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fields;
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string' && LOGIN_FIELDS.has(name)) fields[name] = value;
  return fields;
}
