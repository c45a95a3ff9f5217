import type { ConnectionLimits, ConnectionSession, Connection } from './connection';
import type { MembershipCache } from './membership-cache';
import type { Clock, PresenceStore, RealtimeMetrics } from './ports';
import type { StreamPosition } from './stream/cursor';
import type { ResumeStatus } from './stream/event-cursors';

/** What the hub is built with and what it is asked: its options, the cursor parts it writes, an event's origin, a socket's opening. */

export interface HubOptions {
  readonly membership: MembershipCache;
  /** `server_hostname` of the hello event (the composition root gives the machine's host name). */
  readonly hostname?: string;
  readonly clock: Clock;
  readonly limits: ConnectionLimits;
  /** How long a connection whose socket went away is kept for a reconnect (the reference: about 5 min). */
  readonly reconnectWindowMs: number;
  /** `server_version` of hello events when the upgrade named none. */
  readonly defaultServerVersion: string;
  /** Counts of what was sent, dropped and cut off (none by default). */
  readonly metrics?: RealtimeMetrics;
  /** Told when a user gets a first live socket here or loses the last one (statuses across replicas). */
  readonly presence?: Pick<PresenceStore, 'set'>;
  /** Event cursors on every frame (none without). */
  readonly cursors?: HubCursors;
  /**
   * Whether a user's first socket here hears `status_change online` (the reference sends none while the
   * user's status is manual). Without it, always.
   */
  readonly comesOnline?: (userId: string) => Promise<boolean>;
}

/** The cursor parts the hub writes (docs: event cursors). */
export interface HubCursors {
  /** `, "cursor": "` and the shared part of a cursor at the stream's position now (hello, status_change). */
  now(): Buffer;
  /** The user's part of their cursors and the closing quote. */
  tail(userId: string): Buffer;
  /** A cursor given at connect: whether it resumes here, and from where. */
  check(cursor: unknown, userId: string): { readonly status: ResumeStatus; readonly position?: StreamPosition };
  /** Replays what the connection's user may see after `from` (started in the hello's turn), then live. */
  replay(conn: Connection, from: StreamPosition): Promise<void>;
}

/** The stream record an event came from, and its cursor's shared part (built when first needed). */
export interface EventOrigin {
  readonly topic: number;
  readonly partition: number;
  readonly offset: number;
  head(): Buffer;
}

export interface OpenRequest {
  /** Authenticated at the upgrade (header or cookie), or undefined (authentication_challenge later). */
  readonly session?: ConnectionSession;
  /** `connection_id` of the query ('' = none). */
  readonly connectionId: string;
  /** `sequence_number` of the query. */
  readonly sequenceNumber: number;
  readonly serverVersion?: string;
  /** `cursor` of the query: resume the event stream after it (event cursors). */
  readonly cursor?: string;
}
