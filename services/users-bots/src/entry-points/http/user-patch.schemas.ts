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
