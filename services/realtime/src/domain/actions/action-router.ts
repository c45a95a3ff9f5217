import { isValidId } from '@switchyard/ids';
import type { Connection } from '../connection';
import type { Hub } from '../hub';
import type { MembershipCache } from '../membership-cache';
import type { Clock, PresenceStore, SessionSource, TypingPublisher } from '../ports';
import { failReply, okReply, WsErrors, type WsError } from './replies';

export interface ActionDeps {
  readonly hub: Hub;
  readonly sessions: SessionSource;
  readonly membership: MembershipCache;
  readonly typing: TypingPublisher;
  /** Statuses of every replica's users. */
  readonly presence: Pick<PresenceStore, 'onlineAmong' | 'onlineUsers'>;
  readonly clock: Clock;
  /** `version` of the ping reply (the reference's CurrentVersion). */
  readonly currentVersion: string;
  /** After a successful `authentication_challenge` (e.g. to look the username up). */
  readonly onAuthenticated: (conn: Connection) => void;
  /** The user said they are active (`user_update_active_status` true): statuses' last activity. */
  readonly onActive?: (userId: string) => void;
  /** The statuses the REST API answers (manual away/dnd/offline included); without it, online/offline from presence. */
  readonly readStatuses?: (userIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;
}

/** What the socket layer does after a frame: nothing, or close the socket (the reference closes on bad auth). */
export type FrameOutcome = 'ok' | 'close';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATIC_OK = new Set(['presence', 'posted_notify_ack']);

/**
 * One client frame `{seq, action, data}` (mattermost-wire-2.md §1.2). An unauthenticated socket gets no
 * reply to anything but a successful `authentication_challenge`; a failed challenge closes the socket; a
 * challenge on an authenticated socket is ignored.
 */
export async function handleFrame(deps: ActionDeps, conn: Connection, frame: unknown, serverVersion: string): Promise<FrameOutcome> {
  if (!isObject(frame)) return conn.authenticated ? reply(conn, 0, WsErrors.noAction()) : 'ok';
  const action = typeof frame.action === 'string' ? frame.action : '';
  const seq = typeof frame.seq === 'number' && Number.isInteger(frame.seq) ? frame.seq : 0;
  const data = isObject(frame.data) ? frame.data : {};
  if (action === '') return conn.authenticated ? reply(conn, seq, WsErrors.noAction()) : 'ok';
  if (seq <= 0) return conn.authenticated ? reply(conn, seq, WsErrors.badSeq()) : 'ok';

  if (action === 'authentication_challenge') {
    if (conn.authenticated) return 'ok';
    const token = data.token;
    if (typeof token !== 'string' || token === '') return 'close';
    const session = await deps.sessions.resolve(token).catch(() => undefined);
    if (!session || (session.expiresAt > 0 && session.expiresAt <= deps.clock.now())) return 'close';
    if (!conn.connected || conn.authenticated) return 'ok';
    deps.hub.authenticate(
      conn,
      {
        userId: session.userId,
        sessionId: session.sessionId,
        roles: session.roles,
        isBot: session.isBot,
        expiresAt: session.expiresAt,
        ...(session.tokenId === undefined ? {} : { tokenId: session.tokenId }),
      },
      serverVersion,
      data.cursor,
    );
    deps.onAuthenticated(conn);
    conn.reply(okReply(seq));
    return 'ok';
  }
  if (!conn.authenticated || action.startsWith('custom_')) return 'ok';

  switch (action) {
    case 'ping':
      conn.reply(okReply(seq, { node_id: '', server_time: deps.clock.now(), text: 'pong', version: deps.currentVersion }));
      return 'ok';
    case 'user_typing':
      return userTyping(deps, conn, seq, data);
    case 'get_statuses':
    case 'get_statuses_by_ids':
      return statuses(deps, conn, seq, action, data);
    case 'user_update_active_status':
      if (typeof data.user_is_active !== 'boolean') return reply(conn, seq, WsErrors.invalidParam('user_is_active'));
      if (data.user_is_active) deps.onActive?.(conn.userId);
      conn.reply(okReply(seq));
      return 'ok';
    default:
      if (STATIC_OK.has(action)) {
        conn.reply(okReply(seq));
        return 'ok';
      }
      return reply(conn, seq, WsErrors.badAction());
  }
}

async function userTyping(deps: ActionDeps, conn: Connection, seq: number, data: Json): Promise<FrameOutcome> {
  const channelId = data.channel_id;
  if (typeof channelId !== 'string' || !isValidId(channelId)) return reply(conn, seq, WsErrors.invalidParam('channel_id'));
  const parentId = typeof data.parent_id === 'string' ? data.parent_id : '';
  let allowed: boolean;
  try {
    allowed = conn.isAdmin ? (await deps.membership.channelMembers(channelId)) !== undefined : await deps.membership.isChannelMember(channelId, conn.userId);
  } catch {
    return reply(conn, seq, WsErrors.serverBusy());
  }
  if (!allowed) return reply(conn, seq, WsErrors.invalidParam('channel_id'));
  try {
    await deps.typing.typing(channelId, conn.userId, parentId);
  } catch {
    return reply(conn, seq, WsErrors.serverBusy());
  }
  conn.reply(okReply(seq));
  return 'ok';
}

/** `get_statuses` (every online user) and `get_statuses_by_ids` (each id, `offline` when not online), across replicas. */
async function statuses(deps: ActionDeps, conn: Connection, seq: number, action: string, data: Json): Promise<FrameOutcome> {
  const ids = data.user_ids;
  const byIds = action === 'get_statuses_by_ids';
  if (byIds && (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string'))) return reply(conn, seq, WsErrors.invalidParam('user_ids'));
  const out: Record<string, string> = {};
  try {
    if (byIds && deps.readStatuses) {
      const statuses = await deps.readStatuses(ids as string[]);
      for (const id of ids as string[]) out[id] = statuses.get(id) ?? 'offline';
    } else if (byIds) {
      const online = await deps.presence.onlineAmong(ids as string[]);
      for (const id of ids as string[]) out[id] = online.has(id) ? 'online' : 'offline';
    } else {
      const online = await deps.presence.onlineUsers();
      const statuses = deps.readStatuses ? await deps.readStatuses(online) : undefined;
      for (const id of online) out[id] = statuses?.get(id) ?? 'online';
    }
  } catch {
    return reply(conn, seq, WsErrors.serverBusy());
  }
  conn.reply(okReply(seq, out));
  return 'ok';
}

function reply(conn: Connection, seq: number, error: WsError): FrameOutcome {
  conn.reply(failReply(seq, error));
  return 'ok';
}
