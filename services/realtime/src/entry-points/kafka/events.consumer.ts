import {
  emojiAddedPayloadSchema,
  preferencesEventPayloadSchema,
  ephemeralPostPayloadSchema,
  openDialogPayloadSchema,
  statusChangedPayloadSchema,
  channelMemberUpdatedPayloadSchema,
  channelViewedPayloadSchema,
  EVENT_STREAM_TOPICS,
  threadFollowChangedPayloadSchema,
  threadReadChangedPayloadSchema,
  threadUpdatedPayloadSchema,
  Topics,
  typingPayloadSchema,
  type ChannelsEvent,
  type EmojiAddedEvent,
  type PreferencesChangedEvent,
  type PreferencesDeletedEvent,
  type PostsEvent,
  type RealtimeEvent,
  type StatusChangedEvent,
  type ChannelMemberUpdatedEvent,
  type ChannelViewedEvent,
  type ThreadEvent,
  type UsersEvent,
} from '@switchyard/contracts';
import type { BusMessage, MessageHandler } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';
import { fromChannelsEvent } from '../../domain/events/channel-events';
import { fromPostsEvent } from '../../domain/events/post-events';
import { fromRealtimeEvent } from '../../domain/events/realtime-events';
import { fromUsersEvent, revokedBy } from '../../domain/events/user-events';
import type { Hub } from '../../domain/hub';
import type { MembershipCache } from '../../domain/membership-cache';
import type { Clock, RealtimeMetrics, UserSource } from '../../domain/ports';
import type { EventCursors } from '../../domain/stream/event-cursors';
import type { WsEvent } from '../../domain/ws-event';

export const CONSUMED_TOPICS = EVENT_STREAM_TOPICS;

export interface EventsConsumerDeps {
  readonly hub: Hub;
  readonly membership: MembershipCache;
  readonly users: UserSource;
  readonly logger: Logger;
  /** Attempts of a message whose lookups failed before anything was delivered. */
  readonly maxAttempts: number;
  /** Fan-out latency (from the envelope's time); none by default. */
  readonly metrics?: RealtimeMetrics;
  readonly clock?: Clock;
  /** Event cursors: each message is recorded in the stream, its events carry their cursor (none without). */
  readonly cursors?: EventCursors;
  /**
   * Undefined when the message is durable (a crash keeps it, so its offset is never reused), else resolves
   * once it is: nothing of it (frames, cursors) leaves the process before. The embedded runtime's journal;
   * none in the distributed one (Kafka hands consumers only acknowledged messages).
   */
  readonly durable?: (message: BusMessage) => Promise<void> | undefined;
  /** Those of the ids whose status is exactly `online` (who `@here` mentions); absent: `@here` mentions nobody. */
  readonly onlineAmong?: (userIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

const REALTIME_SCHEMAS = {
  'ephemeral.post': ephemeralPostPayloadSchema, 'dialog.open': openDialogPayloadSchema, typing: typingPayloadSchema, 'status.changed': statusChangedPayloadSchema, 'channel.viewed': channelViewedPayloadSchema,
  'channel_member.updated': channelMemberUpdatedPayloadSchema,
  'thread.updated': threadUpdatedPayloadSchema,
  'thread.follow_changed': threadFollowChangedPayloadSchema,
  'thread.read_changed': threadReadChangedPayloadSchema,
  'emoji.added': emojiAddedPayloadSchema,
  'preferences.changed': preferencesEventPayloadSchema,
  'preferences.deleted': preferencesEventPayloadSchema,
} as const;

function isEnvelope(value: unknown): value is { type: string; time?: unknown; payload: Record<string, unknown> } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { payload?: unknown }).payload === 'object' && (value as { payload?: unknown }).payload !== null;
}

/**
 * Every replica's own consumer of posts.events, channels.events, users.events and realtime.events: each
 * message becomes WebSocket events delivered to this replica's connections; users.events also closes the
 * connections of revoked sessions and deactivated users, and refreshes roles. A message whose lookups
 * fail before anything was delivered is tried again; once something was delivered it is never repeated.
 */
export function eventsConsumer(deps: EventsConsumerDeps): MessageHandler {
  const toEvents = async (message: BusMessage): Promise<WsEvent[]> => {
    const value = message.value;
    if (!isEnvelope(value)) return [];
    // No connection here (live or away): nothing to deliver, so only what keeps caches and sockets right runs.
    const nobody = deps.hub.size === 0;
    switch (message.topic) {
      case Topics.postsEvents:
        if (nobody) return [];
        return fromPostsEvent(
          { membership: deps.membership, users: deps.users, usernameOf: (id) => deps.hub.connectionsOf(id)[0]?.username ?? '', ...(deps.onlineAmong ? { onlineAmong: deps.onlineAmong } : {}) },
          value as unknown as PostsEvent,
        );
      case Topics.channelsEvents: {
        // Evicts the cached members of the channel even when nobody is connected.
        const events = fromChannelsEvent(deps.membership, value as unknown as ChannelsEvent);
        return nobody ? [] : events;
      }
      case Topics.usersEvents: {
        const event = value as unknown as UsersEvent;
        const revoked = revokedBy(event);
        if (revoked) {
          const closed = deps.hub.closeWhere(revoked, 1008, 'session revoked');
          if (closed > 0) deps.logger.info('websocket connections closed', { reason: event.type, user_id: event.payload.userId, closed });
        }
        if (event.type === 'user.roles_updated') await refreshRoles(deps, event.payload.userId);
        if (nobody) {
          if (event.type === 'team.member_added' && event.payload.teamId !== undefined) deps.membership.evictTeamMember(event.payload.teamId, event.payload.userId);
          return [];
        }
        return fromUsersEvent(deps, event);
      }
      case Topics.realtimeEvents: {
        if (nobody) return [];
        const schema = REALTIME_SCHEMAS[value.type as keyof typeof REALTIME_SCHEMAS];
        if (!schema || schema.validate(value.payload).error) {
          deps.logger.warn('realtime.events message ignored (unknown type or invalid payload)', { type: value.type });
          return [];
        }
        return fromRealtimeEvent(value as unknown as RealtimeEvent | StatusChangedEvent | ChannelViewedEvent | ChannelMemberUpdatedEvent | ThreadEvent | EmojiAddedEvent | PreferencesChangedEvent | PreferencesDeletedEvent);
      }
      default:
        return [];
    }
  };

  return async (message) => {
    const stream = deps.cursors?.stream;
    // A record this replica already handled (a redelivery after a rejoin): its events went out once.
    if (stream && !stream.fresh(message)) return;
    const saving = deps.durable?.(message);
    if (saving) await saving;
    let delivered = 0;
    let receivers = 0;
    const time = isEnvelope(message.value) ? message.value.time : undefined;
    const at = typeof time === 'number' ? time : undefined;
    const origin = deps.cursors?.originOf(message, at);
    try {
      for (const event of await toEvents(message)) {
        receivers += await deps.hub.deliver(at === undefined || event.at !== undefined ? event : { ...event, at }, origin);
        delivered += 1;
      }
      if (receivers > 0 && typeof time === 'number' && deps.metrics && deps.clock) deps.metrics.fanOut(Math.max(0, deps.clock.now() - time) / 1000);
    } catch (error) {
      if (delivered === 0 && message.attempt < deps.maxAttempts) throw error;
      deps.logger.warn('websocket event not delivered', { topic: message.topic, error: error instanceof Error ? error.message : String(error) });
    }
    stream?.handled(message, at);
  };
}

async function refreshRoles(deps: EventsConsumerDeps, userId: string): Promise<void> {
  const conns = deps.hub.connectionsOf(userId);
  if (conns.length === 0) return;
  const [user] = await deps.users.usersByIds([userId]);
  if (!user) return;
  for (const conn of conns) if (conn.session) conn.session = { ...conn.session, roles: user.roles };
}
