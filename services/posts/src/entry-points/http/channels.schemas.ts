import { Joi } from '@switchyard/validation';

const id = Joi.string().pattern(/^[a-z0-9]{26}$/);

export const createChannelBody = Joi.object({
  team_id: id.required(),
  name: Joi.string().allow('').max(1000).required(),
  display_name: Joi.string().allow('').max(1000).default(''),
  type: Joi.string().max(10).required(),
  purpose: Joi.string().allow('').max(10_000).default(''),
  header: Joi.string().allow('').max(10_000).default(''),
}).required();

export const directChannelBody = Joi.array().items(id.required()).length(2).required();

export const addMemberBody = Joi.object({
  user_id: id,
  user_ids: Joi.array().items(id.required()).min(1).max(1000),
  post_root_id: Joi.string().allow(''),
})
  .or('user_id', 'user_ids')
  .required();

export const internalDirectBody = Joi.object({ user_ids: Joi.array().items(id.required()).length(2).required() }).required();

/** ChannelPatch: a field of the wrong JSON type fails decoding, as in the reference (400 invalid_param `channel`). */
export const patchChannelBody = Joi.object({
  display_name: Joi.string().allow(''),
  name: Joi.string().allow(''),
  header: Joi.string().allow(''),
  purpose: Joi.string().allow(''),
})
  .unknown(true)
  .required();
