import { clientPost, type ChannelsEventPayload, type FileAttachedPayload, type InternalChannel, type PostEventPayload, type ReactionEventPayload } from '@switchyard/contracts';

/** A bus event an outgoing hook may subscribe to, other than `posted` (README "Event types"). */
export interface HookEvent {
  /** The wire's event type: `post_edited`, `reaction_added`, ... */
  readonly type: string;
  /** Unique per event and the same when the bus redelivers it (the delivery ids derive from it). */
  readonly key: string;
  readonly time: number;
  readonly channel: InternalChannel;
  /** The post concerned (`""` for channel events): the delivery log's `post_id`. */
  readonly postId: string;
  /** Who caused it (never fires a bot hook on its own bot's actions). */
  readonly actorId: string;
  /** Users the event @-mentions in the text (bot hooks); empty for non-post events. */
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
}

const teamOf = (channel: InternalChannel): string => channel.team_id;

/** posts.events `post.updated` / `post.deleted` (system posts never fire). */
export function postHookEvent(id: string, time: number, kind: 'post.updated' | 'post.deleted', p: PostEventPayload): HookEvent | undefined {
  if (p.is_system || p.post.type.startsWith('system_')) return undefined;
  const visible = clientPost(p.post);
  return {
    type: kind === 'post.updated' ? 'post_edited' : 'post_deleted',
    key: id,
    time,
    channel: p.channel,
    postId: p.post.id,
    actorId: p.author.id,
    message: kind === 'post.updated' ? p.post.message : '',
    data: { post: visible, channel_id: p.channel.id, team_id: teamOf(p.channel) },
  };
}

/** posts.events `reaction.added` / `reaction.removed`. */
export function reactionHookEvent(id: string, time: number, kind: 'reaction.added' | 'reaction.removed', p: ReactionEventPayload): HookEvent {
  const r = p.reaction;
  return {
    type: kind === 'reaction.added' ? 'reaction_added' : 'reaction_removed',
    key: id,
    time,
    channel: p.channel,
    postId: r.post_id,
    actorId: r.user_id,
    message: '',
    data: { reaction: { user_id: r.user_id, post_id: r.post_id, emoji_name: r.emoji_name, create_at: r.create_at }, channel_id: p.channel.id, team_id: teamOf(p.channel) },
  };
}

/**
 * posts.events `file.attached` → `file_uploaded`: a file that became part of a post, so readable by whoever
 * may read the channel (an upload alone is its uploader's only and fires nothing). `data.file_info` is the
 * reference's FileInfo JSON as the post shows it.
 */
export function fileHookEvent(id: string, time: number, p: FileAttachedPayload): HookEvent {
  return {
    type: 'file_uploaded',
    key: id,
    time,
    channel: p.channel,
    postId: p.file_info.post_id,
    actorId: p.uploader.id,
    message: '',
    data: { file_info: p.file_info, channel_id: p.channel.id, team_id: teamOf(p.channel) },
  };
}

const CHANNEL_EVENTS: Readonly<Record<string, string>> = {
  'channel.created': 'channel_created',
  'channel.member_added': 'channel_member_added',
  'channel.member_removed': 'channel_member_removed',
};

/** channels.events `channel.created`, `channel.member_added`, `channel.member_removed`. */
export function channelHookEvent(id: string, time: number, kind: string, p: ChannelsEventPayload): HookEvent | undefined {
  const type = CHANNEL_EVENTS[kind];
  if (type === undefined) return undefined;
  const c = p.channel;
  const data =
    type === 'channel_created'
      ? { channel: { id: c.id, team_id: c.team_id, type: c.type, name: c.name, display_name: c.display_name, creator_id: c.creator_id, delete_at: c.delete_at } }
      : { channel_id: c.id, team_id: c.team_id, user_id: p.user_id ?? '', actor_id: p.actor_id ?? '' };
  return { type, key: id, time, channel: c, postId: '', actorId: p.actor_id ?? p.user_id ?? '', message: '', data };
}

/** The Standard Webhooks envelope of a non-`posted` event. */
export function eventEnvelopeBody(event: Pick<HookEvent, 'type' | 'time' | 'data'>, token: string): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(event.time).toISOString(), token, data: event.data });
}
