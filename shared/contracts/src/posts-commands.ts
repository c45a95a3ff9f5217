import Joi from 'joi';
import type { Envelope } from './envelope';
import type { PostSource, WirePostPriority } from './posts-model';

/**
 * posts.commands (other services → posts), keyed by channel id. The producer has already checked
 * permissions and destination (it is the integration's service); posts validates the post itself,
 * normalises attachments, stores it and publishes post.created. Idempotent by `post.id`: a command whose
 * post id already exists changes nothing, so redelivery and producer retries never duplicate a post.
 * The envelope id may be anything unique; the post id is assigned by the producer before publishing.
 */
export interface CreatePostCommandPayload {
  readonly post: {
    /** 26-char id assigned by the producer (`newId()` from @switchyard/ids). */
    readonly id: string;
    readonly channel_id: string;
    readonly user_id: string;
    readonly message: string;
    readonly type: string;
    readonly props: Readonly<Record<string, unknown>>;
    readonly root_id: string;
    /** ms; when absent posts uses its clock. Producers splitting a message set increasing values. */
    readonly create_at?: number;
    readonly priority?: WirePostPriority;
    /**
     * Files to attach (an incoming hook's uploads through `hookFiles`): attached with the `POST /posts` rules
     * (the author's upload, not attached yet, same channel), others dropped; at most 10.
     */
    readonly file_ids?: readonly string[];
  };
  readonly source: PostSource;
  /** The hook (incoming or outgoing) that caused it, for logs and reaction notifications. */
  readonly hook_id?: string;
  readonly request_id?: string;
}

export type CreatePostCommand = Envelope<'post.create', CreatePostCommandPayload>;

export const createPostCommandPayloadSchema = Joi.object<CreatePostCommandPayload>({
  post: Joi.object({
    id: Joi.string().length(26).required(),
    channel_id: Joi.string().required(),
    user_id: Joi.string().required(),
    message: Joi.string().allow('').required(),
    type: Joi.string().allow('').required(),
    props: Joi.object().required(),
    root_id: Joi.string().allow('').required(),
    create_at: Joi.number().integer().min(0),
    priority: Joi.object().unknown(true),
    file_ids: Joi.array().items(Joi.string().length(26)).max(10),
  }).required(),
  source: Joi.string().valid('api', 'incoming_webhook', 'outgoing_webhook', 'action', 'system', 'command').required(),
  hook_id: Joi.string(),
  request_id: Joi.string().allow(''),
}).unknown(true);
