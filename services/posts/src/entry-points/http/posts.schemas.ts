import { Joi } from '@switchyard/validation';

const id = Joi.string().pattern(/^[a-z0-9]{26}$/);
const optionalId = Joi.alternatives(id, Joi.string().valid(''));
const props = Joi.object().unknown(true);
const fileIds = Joi.array().items(Joi.string().max(64)).max(100);

export const createPostBody = Joi.object({
  // Any string, as the reference (a Go string field): a channel that is not found, malformed or missing,
  // fails the create_post check (403) in the domain.
  channel_id: Joi.string().allow('').max(256).default(''),
  message: Joi.string().allow('').default(''),
  type: Joi.string().allow('').max(200).default(''),
  props: props.allow(null).default({}),
  // Any string: a malformed root is the domain's 400 api.post.create_post.root_id.app_error, as the reference.
  root_id: Joi.string().allow('').max(64).default(''),
  file_ids: fileIds.allow(null).default([]),
  pending_post_id: Joi.string().allow('').max(100).default(''),
  create_at: Joi.number().integer().min(0),
  metadata: Joi.object({
    priority: Joi.object({
      priority: Joi.string().valid('', 'urgent', 'important').allow(null),
      requested_ack: Joi.boolean().allow(null),
      persistent_notifications: Joi.boolean().allow(null),
    }),
  }).unknown(true).allow(null),
}).required();

export const updatePostBody = Joi.object({
  id: Joi.string().required(),
  message: Joi.string().allow(''),
  props: props.allow(null),
  file_ids: fileIds.allow(null),
  is_pinned: Joi.boolean(),
  has_reactions: Joi.boolean(),
}).required();

export const patchPostBody = Joi.object({
  message: Joi.string().allow(''),
  props: props.allow(null),
  file_ids: fileIds.allow(null),
  is_pinned: Joi.boolean(),
  has_reactions: Joi.boolean(),
}).required();

export const reactionBody = Joi.object({
  user_id: Joi.string().max(64).required(),
  post_id: Joi.string().max(64).required(),
  emoji_name: Joi.string().allow('').max(1000).required(),
}).required();

export const integrationUpdateBody = Joi.object({
  message: Joi.string().allow(''),
  props: props.allow(null),
}).required();

/** `POST /posts/ephemeral`: unknown keys of the post (type, user_id, create_at, ...) are ignored. */
export const ephemeralPostBody = Joi.object({
  user_id: id.required(),
  post: Joi.object({
    id: optionalId,
    channel_id: id.required(),
    message: Joi.string().allow('').default(''),
    props: props.allow(null).default({}),
    root_id: optionalId.default(''),
  }).required(),
}).required();
