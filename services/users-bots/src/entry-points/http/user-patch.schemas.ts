import { Joi } from '@switchyard/validation';

/** A string field of the UserPatch; `null` is the same as absent (a nil pointer). */
const text = Joi.string().allow('').max(4096).allow(null);
/** A map field (props, notify_props, timezone): strings only; `null` is absent, `{}` is an empty map. */
const stringMap = Joi.object().pattern(Joi.string().max(256), Joi.string().allow('').max(4096)).allow(null);

/** `PUT /users/{user_id}/patch` body: the reference's UserPatch, types only (content rules in the domain); unknown keys dropped. */
export const userPatchBody = Joi.object({
  username: text,
  password: text,
  nickname: text,
  first_name: text,
  last_name: text,
  position: text,
  email: text,
  props: stringMap,
  notify_props: stringMap,
  locale: text,
  timezone: stringMap,
  remote_id: text,
})
  .allow(null)
  .required();

export interface UserPatchBody {
  readonly username?: string | null;
  readonly password?: string | null;
  readonly nickname?: string | null;
  readonly first_name?: string | null;
  readonly last_name?: string | null;
  readonly position?: string | null;
  readonly email?: string | null;
  readonly props?: Record<string, string> | null;
  readonly notify_props?: Record<string, string> | null;
  readonly locale?: string | null;
  readonly timezone?: Record<string, string> | null;
}

const count = Joi.number().integer().allow(null);
const flag = Joi.boolean().allow(null);

/**
 * `PUT /users/{user_id}` body: a User as the reference's decoder takes it (wrong types refused; null is the zero value);
 * fields the route does not set (roles, auth, times, flags) are only type-checked; unknown keys dropped.
 */
export const userUpdateBody = Joi.object({
  id: text,
  username: text,
  password: text,
  nickname: text,
  first_name: text,
  last_name: text,
  position: text,
  email: text,
  locale: text,
  props: stringMap,
  notify_props: stringMap,
  timezone: stringMap,
  auth_data: text,
  auth_service: text,
  roles: text,
  mfa_secret: text,
  remote_id: text,
  bot_description: text,
  terms_of_service_id: text,
  create_at: count,
  update_at: count,
  delete_at: count,
  last_password_update: count,
  last_picture_update: count,
  failed_attempts: count,
  last_activity_at: count,
  bot_last_icon_update: count,
  terms_of_service_create_at: count,
  last_login: count,
  email_verified: flag,
  allow_marketing: flag,
  mfa_active: flag,
  is_bot: flag,
  disable_welcome_email: flag,
}).required();

export type UserUpdateBody = Partial<Record<'id' | 'username' | 'password' | 'nickname' | 'first_name' | 'last_name' | 'position' | 'email' | 'locale', string | null>> &
  Partial<Record<'props' | 'notify_props' | 'timezone', Record<string, string> | null>>;
