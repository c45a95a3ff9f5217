import { Topics, type ChannelsEvent, type PostsEvent, type RealtimeEvent, type UsersEvent } from '@switchyard/contracts';
import { fromChannelsEvent } from '../events/channel-events';
import { fromPostsEvent } from '../events/post-events';
import { fromRealtimeEvent } from '../events/realtime-events';
import { fromUsersEvent } from '../events/user-events';
import type { MembershipCache } from '../membership-cache';
import type { UserSource } from '../ports';
import type { WsEvent } from '../ws-event';
import type { StreamRecord } from './event-stream';

/** Who an event is replayed to (a resuming socket or a long-poll). */
export interface Viewer {
  readonly userId: string;
  readonly isAdmin: boolean;
  readonly username: string;
}

export interface ReplayDeps {
  readonly membership: MembershipCache;
  readonly users: UserSource;
  /** Who `@here` mentions (statuses now: a replay cannot know the status when it was posted); absent: nobody. */
  readonly onlineAmong?: (userIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** A replayed event and the record it came from. */
export interface ReplayedEvent {
  readonly record: StreamRecord;
  readonly event: WsEvent;
}

interface Envelope {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).type === 'string' && typeof (value as Envelope).payload === 'object' && (value as Envelope).payload !== null;

/** Replays change no cache: the live consumer already applied each record's joins, leaves and evictions. */
const UNCHANGED = { memberJoined: (): void => undefined, memberLeft: (): void => undefined, evictChannel: (): void => undefined, evictTeamMember: (): void => undefined };

/**
 * The WebSocket events of a record as the live consumer builds them, without its side effects. `typing` is
 * not replayed (a hint about that moment, dropped by the live path too when a socket lags).
 */
async function eventsOf(deps: ReplayDeps, viewer: Viewer, record: StreamRecord): Promise<WsEvent[]> {
  if (record.typing) return [];
  const { topic, value } = record.message;
  if (!isEnvelope(value)) return [];
  switch (topic) {
    case Topics.postsEvents:
      return fromPostsEvent(
        { membership: deps.membership, users: deps.users, usernameOf: (id) => (id === viewer.userId ? viewer.username : ''), ...(deps.onlineAmong ? { onlineAmong: deps.onlineAmong } : {}) },
        value as unknown as PostsEvent,
      );
    case Topics.channelsEvents:
      return fromChannelsEvent(UNCHANGED, value as unknown as ChannelsEvent);
    case Topics.usersEvents:
      return fromUsersEvent({ membership: UNCHANGED, users: deps.users }, value as unknown as UsersEvent);
    case Topics.realtimeEvents:
      return value.type === 'typing' ? [] : fromRealtimeEvent(value as unknown as RealtimeEvent);
    default:
      return [];
  }
}

/** A viewer's own joins and leaves, by channel, in order. */
export type MembershipChanges = ReadonlyMap<string, readonly { readonly time: number; readonly joined: boolean }[]>;

/** The viewer's own joins and leaves (channel, when, joined), from channels.events records. */
export function membershipChanges(viewer: Viewer, records: readonly StreamRecord[]): MembershipChanges {
  const changes = new Map<string, { time: number; joined: boolean }[]>();
  for (const record of records) {
    const { topic, value } = record.message;
    if (topic !== Topics.channelsEvents || !isEnvelope(value)) continue;
    const joined = value.type === 'channel.member_added';
    if (!joined && value.type !== 'channel.member_removed') continue;
    const payload = value.payload as { user_id?: unknown; channel?: { id?: unknown } };
    const channelId = payload.channel?.id;
    if (payload.user_id !== viewer.userId || typeof channelId !== 'string') continue;
    const list = changes.get(channelId) ?? [];
    list.push({ time: record.time, joined });
    changes.set(channelId, list);
  }
  return changes;
}

/**
 * The events of `records` (in order) that `viewer` may see, decided as for the live socket (hub.audience and
 * admits) but with channel membership as it was when each event happened: the viewer's current membership,
 * undone by their own joins and leaves that came later (`changes`: from every record after the cursor, up to
 * now). A join made after an event means the viewer was not a member then, a leave that they were. Team
 * membership is the current one. Events for one connection (`connection_id`) are not replayed.
 */
export async function visibleEvents(deps: ReplayDeps, viewer: Viewer, records: readonly StreamRecord[], changes: MembershipChanges): Promise<ReplayedEvent[]> {
  const memberAt = async (channelId: string, time: number): Promise<boolean> => {
    const next = (changes.get(channelId) ?? []).find((c) => c.time > time);
    if (next) return !next.joined;
    // Members read before the event happened may lack a join (or still have a leave) made just before it whose
    // channels.events record is handled after the event's: read again then, as the live socket's audience.
    return (await deps.membership.channelMembers(channelId, time))?.has(viewer.userId) ?? false;
  };
  const out: ReplayedEvent[] = [];
  for (const record of records) {
    // Every posts.events event goes to its channel's members: a channel the viewer was not in then is skipped
    // before its events are built.
    const channelId = postsChannel(record);
    if (channelId !== undefined && !(await memberAt(channelId, record.time))) continue;
    for (const event of await eventsOf(deps, viewer, record)) {
      if (await visible(deps, viewer, event, (channelId) => memberAt(channelId, record.time))) {
        const extra = event.dataFor?.(viewer.userId);
        out.push({ record, event: extra ? { ...event, data: { ...event.data, ...extra }, dataFor: undefined } : event });
      }
    }
  }
  return out;
}

/** The channel of a posts.events record (its events go to that channel's members only); undefined for other records. */
export function postsChannel(record: StreamRecord): string | undefined {
  return record.channel;
}

async function visible(deps: ReplayDeps, viewer: Viewer, event: WsEvent, isMember: (channelId: string) => Promise<boolean>): Promise<boolean> {
  const b = event.broadcast;
  if (b.connection_id !== '') return false;
  if (b.omit_users?.[viewer.userId] === true) return false;
  if (b.contains_sanitized_data === true && viewer.isAdmin) return false;
  if (b.contains_sensitive_data === true && !viewer.isAdmin) return false;
  if (b.user_id !== '') return b.user_id === viewer.userId;
  if (b.channel_id !== '' && !(await isMember(b.channel_id))) return false;
  if (b.team_id !== '') return (await deps.membership.teamMembersAmong(b.team_id, [viewer.userId])).length > 0;
  return true;
}
