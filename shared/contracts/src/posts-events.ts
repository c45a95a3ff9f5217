import Joi from 'joi';
import type { Envelope } from './envelope';
import type { InternalChannel, PostAuthor, PostSource, WirePost } from './posts-model';

/**
 * posts.events (posts → others), keyed by channel id so per-channel order is kept. Each event carries
 * what consumers need (team, channel, author) so nobody has to call posts back.
 */
export type PostsEventType = 'post.created' | 'post.updated' | 'post.deleted' | 'reaction.added' | 'reaction.removed' | 'post.refused' | 'file.attached';

export interface PostEventPayload {
  /** As stored, action integrations included: never hand it to a client unstripped. */
  readonly post: WirePost;
  readonly channel: InternalChannel;
  /** `null` for DMs and GMs. */
  readonly team: { readonly id: string; readonly name: string } | null;
  readonly author: PostAuthor;
  readonly source: PostSource;
  /** `props.from_webhook === "true"`: outgoing webhooks never fire for these. */
  readonly from_webhook: boolean;
  /** The post's type starts with `system_` (or it is ephemeral). */
  readonly is_system: boolean;
  /**
   * post.created: the ids of the members the post mentions, as posts counted them (keywords and notify props applied);
   * absent when not known (a post published by the sweep), and realtime then reads the `@names` itself.
   */
  readonly mentions?: readonly string[];
}

export interface ReactionEventPayload {
  readonly reaction: { readonly user_id: string; readonly post_id: string; readonly emoji_name: string; readonly create_at: number };
  /** The post reacted to, as stored (action integrations included, never the hook key). */
  readonly post: WirePost;
  readonly channel: InternalChannel;
  readonly team: { readonly id: string; readonly name: string } | null;
  readonly reactor: PostAuthor;
  /**
   * The incoming hook that made the post, when one did: lets incoming-hooks send reaction notifications.
   * It is the hook's key (its only secret): internal, never handed to a client.
   */
  readonly incoming_hook_id?: string;
}

/**
 * `post.refused`: posts did not create a commanded post (unknown or archived channel, invalid post): the
 * producer waiting for it (`IncomingWebhookAckMode=stored`) answers with this error instead of `ok`.
 * Keyed by channel id like the others; consumers that only care about stored posts skip it.
 */
export interface PostRefusedPayload {
  readonly post_id: string;
  readonly channel_id: string;
  readonly source: PostSource;
  readonly error: { readonly id: string; readonly message: string; readonly detailed_error: string; readonly status_code: number };
}

export type PostRefusedEvent = Envelope<'post.refused', PostRefusedPayload>;

/**
 * `file.attached`: a file became part of a post (created with it, or added by an edit), so whoever may read
 * the channel may now read it. One event per file, published after its post's `post.created` /
 * `post.updated` (the post's outbox, keyed by channel id). An upload alone publishes nothing: an unattached
 * file is its uploader's only (docs/adr "file events fire on attach").
 */
export interface FileAttachedPayload {
  /** The reference's FileInfo JSON (mattermost-wire-3.md §1.1, no storage keys), `post_id` set. */
  readonly file_info: Readonly<Record<string, unknown>> & { readonly id: string; readonly post_id: string; readonly user_id: string };
  readonly channel: InternalChannel;
  /** `null` for DMs and GMs. */
  readonly team: { readonly id: string; readonly name: string } | null;
  /** The uploader (the post's author). */
  readonly uploader: PostAuthor;
  readonly source: PostSource;
}

export type FileAttachedEvent = Envelope<'file.attached', FileAttachedPayload>;

export type PostCreatedEvent = Envelope<'post.created' | 'post.updated' | 'post.deleted', PostEventPayload>;
export type ReactionEvent = Envelope<'reaction.added' | 'reaction.removed', ReactionEventPayload>;
export type PostsEvent = PostCreatedEvent | ReactionEvent | PostRefusedEvent | FileAttachedEvent;

const channelSchema = Joi.object({
  id: Joi.string().required(),
  team_id: Joi.string().allow('').required(),
  team_name: Joi.string().allow('').required(),
  type: Joi.string().valid('O', 'P', 'D', 'G').required(),
  name: Joi.string().required(),
  display_name: Joi.string().allow('').required(),
  creator_id: Joi.string().allow('').required(),
  delete_at: Joi.number().required(),
}).unknown(true);

const authorSchema = Joi.object({ id: Joi.string().required(), username: Joi.string().allow('').required(), is_bot: Joi.boolean().required() }).unknown(true);
const teamSchema = Joi.object({ id: Joi.string().required(), name: Joi.string().required() }).allow(null);
const postSchema = Joi.object({ id: Joi.string().required(), channel_id: Joi.string().required(), user_id: Joi.string().required(), message: Joi.string().allow('').required(), props: Joi.object().required() }).unknown(true);

export const postEventPayloadSchema = Joi.object<PostEventPayload>({
  post: postSchema.required(),
  channel: channelSchema.required(),
  team: teamSchema.required(),
  author: authorSchema.required(),
  source: Joi.string().valid('api', 'incoming_webhook', 'outgoing_webhook', 'action', 'system', 'command').required(),
  from_webhook: Joi.boolean().required(),
  is_system: Joi.boolean().required(),
  mentions: Joi.array().items(Joi.string().max(64)).max(2_000),
}).unknown(true);

export const reactionEventPayloadSchema = Joi.object<ReactionEventPayload>({
  reaction: Joi.object({ user_id: Joi.string().required(), post_id: Joi.string().required(), emoji_name: Joi.string().required(), create_at: Joi.number().required() }).unknown(true).required(),
  post: postSchema.required(),
  channel: channelSchema.required(),
  team: teamSchema.required(),
  reactor: authorSchema.required(),
  incoming_hook_id: Joi.string(),
}).unknown(true);

export const fileAttachedPayloadSchema = Joi.object<FileAttachedPayload>({
  file_info: Joi.object({ id: Joi.string().required(), post_id: Joi.string().required(), user_id: Joi.string().required(), channel_id: Joi.string().required(), name: Joi.string().allow('').required() }).unknown(true).required(),
  channel: channelSchema.required(),
  team: teamSchema.required(),
  uploader: authorSchema.required(),
  source: Joi.string().valid('api', 'incoming_webhook', 'outgoing_webhook', 'action', 'system', 'command').required(),
}).unknown(true);
