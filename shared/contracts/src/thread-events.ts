import Joi from 'joi';
import type { Envelope } from './envelope';

/**
 * Collapsed-thread events on realtime.events (posts → every realtime replica, keyed by the user id): each
 * becomes one WebSocket event to that user's own connections, `broadcast` {team_id, user_id} as the
 * reference (mattermost-wire-2.md §1.6, mattermost-wire-3.md §3.10).
 *
 * - `thread.updated` → `thread_updated` `{thread: <ThreadResponse JSON string>, previous_unread_mentions,
 *   previous_unread_replies}`: a reply in a thread the user follows (the thread as that user sees it).
 * - `thread.follow_changed` → `thread_follow_changed` `{thread_id, state, reply_count}`.
 * - `thread.read_changed` → `thread_read_changed`: one thread `{thread_id, timestamp, unread_mentions,
 *   unread_replies, previous_unread_mentions, previous_unread_replies, channel_id}`, or every thread of the
 *   team (`PUT …/threads/read`) with no data.
 */
export interface ThreadUpdatedPayload {
  readonly user_id: string;
  /** `""` for direct and group channels. */
  readonly team_id: string;
  /** The ThreadResponse object (realtime sends it as a JSON string). */
  readonly thread: Readonly<Record<string, unknown>>;
  readonly previous_unread_mentions: number;
  readonly previous_unread_replies: number;
}

export interface ThreadFollowChangedPayload {
  readonly user_id: string;
  readonly team_id: string;
  readonly thread_id: string;
  readonly state: boolean;
  readonly reply_count: number;
}

/** One thread read (every field but `team_id`/`user_id` present), or all of a team's (only those two). */
export interface ThreadReadChangedPayload {
  readonly user_id: string;
  readonly team_id: string;
  readonly thread_id?: string;
  readonly timestamp?: number;
  readonly unread_mentions?: number;
  readonly unread_replies?: number;
  readonly previous_unread_mentions?: number;
  readonly previous_unread_replies?: number;
  readonly channel_id?: string;
}

export type ThreadUpdatedEvent = Envelope<'thread.updated', ThreadUpdatedPayload>;
export type ThreadFollowChangedEvent = Envelope<'thread.follow_changed', ThreadFollowChangedPayload>;
export type ThreadReadChangedEvent = Envelope<'thread.read_changed', ThreadReadChangedPayload>;
export type ThreadEvent = ThreadUpdatedEvent | ThreadFollowChangedEvent | ThreadReadChangedEvent;

const id = Joi.string().min(1).max(64);
const teamId = Joi.string().allow('').max(64).required();
const count = Joi.number().integer().min(0);

export const threadUpdatedPayloadSchema = Joi.object<ThreadUpdatedPayload>({
  user_id: id.required(),
  team_id: teamId,
  thread: Joi.object({ id: id.required() }).unknown(true).required(),
  previous_unread_mentions: count.required(),
  previous_unread_replies: count.required(),
}).unknown(true);

export const threadFollowChangedPayloadSchema = Joi.object<ThreadFollowChangedPayload>({
  user_id: id.required(),
  team_id: teamId,
  thread_id: id.required(),
  state: Joi.boolean().required(),
  reply_count: count.required(),
}).unknown(true);

export const threadReadChangedPayloadSchema = Joi.object<ThreadReadChangedPayload>({
  user_id: id.required(),
  team_id: teamId,
  thread_id: id,
  timestamp: Joi.number().integer(),
  unread_mentions: count,
  unread_replies: count,
  previous_unread_mentions: count,
  previous_unread_replies: count,
  channel_id: id,
}).unknown(true);
