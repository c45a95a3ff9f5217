/** A user's status as the reference stores it (mattermost-wire-3.md §3.1). */
export const STATUS_VALUES = ['online', 'away', 'dnd', 'offline'] as const;
export type StatusValue = (typeof STATUS_VALUES)[number];

export interface StoredStatus {
  readonly userId: string;
  readonly status: StatusValue;
  /** Set by the user (PUT); automatic changes leave it alone. `online` is never manual. */
  readonly manual: boolean;
  /** ms. */
  readonly lastActivityAt: number;
  /** Unix seconds; 0 = no end. */
  readonly dndEndTime: number;
  /** What a timed `dnd` returns to. */
  readonly prevStatus: StatusValue;
  /**
   * Last set by socket activity: without a live socket on any replica it reads `offline` (a killed replica
   * never said goodbye). Set through the API (`PUT ... online`), it stands, as the reference's stored row.
   */
  readonly socket: boolean;
}

/** The Status JSON. */
export interface WireStatus {
  readonly user_id: string;
  readonly status: string;
  readonly manual: boolean;
  readonly last_activity_at: number;
  readonly dnd_end_time: number;
}

export interface StatusFacts {
  /** The user has a live socket on some replica. */
  readonly connected: boolean;
  readonly now: number;
  /** TeamSettings.UserStatusAwayTimeout in ms. */
  readonly awayAfterMs: number;
}

export const offlineStatus = (userId: string): WireStatus => ({ user_id: userId, status: 'offline', manual: false, last_activity_at: 0, dnd_end_time: 0 });

/**
 * What a reader sees. Manual statuses stand (a timed `dnd` returns to the previous status once it ends).
 * Automatic ones follow the sockets: connected → `online`, or `away` once the last activity is older than
 * the away timeout; no socket anywhere → `offline` (also after a replica was killed without saying so).
 */
export function effectiveStatus(userId: string, stored: StoredStatus | undefined, facts: StatusFacts): WireStatus {
  if (!stored) return facts.connected ? { ...offlineStatus(userId), status: 'online' } : offlineStatus(userId);
  const base = { user_id: stored.userId, last_activity_at: stored.lastActivityAt, dnd_end_time: 0 };
  let status = stored.status;
  let manual = stored.manual;
  if (manual && status === 'dnd' && stored.dndEndTime > 0 && facts.now >= stored.dndEndTime * 1000) {
    status = stored.prevStatus;
    manual = status !== 'online';
  }
  if (manual) return { ...base, status, manual: true, dnd_end_time: status === 'dnd' ? stored.dndEndTime : 0 };
  if (!facts.connected) return { ...base, status: stored.socket ? 'offline' : status, manual: false };
  const idle = stored.lastActivityAt > 0 && facts.now - stored.lastActivityAt > facts.awayAfterMs;
  return { ...base, status: idle ? 'away' : 'online', manual: false };
}

/**
 * The record a `PUT` leaves: `online` is automatic again; the others are manual (dnd keeps its end time, cut to the
 * minute as the reference's truncateDNDEndTime, so it ends on the minute its expiry job would end it).
 */
export function putStatus(previous: StoredStatus | undefined, userId: string, status: StatusValue, dndEndTime: number, now: number): StoredStatus {
  const prev: StatusValue = previous && previous.status !== 'dnd' ? previous.status : 'online';
  return {
    userId,
    status,
    manual: status !== 'online',
    lastActivityAt: previous?.lastActivityAt || now,
    dndEndTime: status === 'dnd' ? dndEndTime - (dndEndTime % 60) : 0,
    prevStatus: status === 'dnd' ? prev : 'online',
    socket: false,
  };
}

/**
 * The record after a REST post (`POST /posts`, mattermost-wire-3.md §3.1): online unless manual. A user
 * without a socket-driven status stays online (a REST-only bot never goes away or offline, as the reference).
 */
export function postedOnline(previous: StoredStatus | undefined, userId: string, now: number): StoredStatus {
  if (previous?.manual) return previous;
  return { userId, status: 'online', manual: false, lastActivityAt: now, dndEndTime: 0, prevStatus: 'online', socket: previous?.socket ?? false };
}

/** The record once an automatic `online` idled past the away timeout (checked while connected). */
export function idledAway(previous: StoredStatus): StoredStatus {
  return { ...previous, status: 'away' };
}

/** The record after socket activity (connect, `user_update_active_status`): manual statuses are kept. */
export function touched(previous: StoredStatus | undefined, userId: string, now: number): StoredStatus {
  if (previous?.manual) return { ...previous, lastActivityAt: now };
  return { userId, status: 'online', manual: false, lastActivityAt: now, dndEndTime: 0, prevStatus: 'online', socket: true };
}
