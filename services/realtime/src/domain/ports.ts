import type { InternalUser, ResolvedSession, UserUpdatedCopies } from '@switchyard/contracts';
import type { Clock } from '@switchyard/ids';

/** users-bots' token check (the `authentication_challenge` action). */
export interface SessionSource {
  /** undefined for an unknown, revoked or expired token. */
  resolve(token: string): Promise<ResolvedSession | undefined>;
}

/** Who belongs where: posts (channel members) and users-bots (team members). */
export interface MembershipSource {
  /** Every member of the channel; undefined when the channel does not exist. */
  channelMemberIds(channelId: string): Promise<readonly string[] | undefined>;
  isTeamMember(teamId: string, userId: string): Promise<boolean>;
}

/** users-bots' user lookups (usernames for mentions and display names, `user_updated` objects). */
export interface UserSource {
  usersByIds(ids: readonly string[]): Promise<readonly InternalUser[]>;
  /** The admin, sanitised and self copies of the User JSON for `user_updated`; undefined for an unknown user. */
  userUpdatedCopies(id: string): Promise<UserUpdatedCopies | undefined>;
}

/** Where `typing` goes so that every replica's connections get it (realtime.events). */
export interface TypingPublisher {
  typing(channelId: string, userId: string, parentId: string): Promise<void>;
}

export type { Clock };

/** What realtime reports for its metrics (Prometheus in production); every label value is from a fixed set. */
export interface RealtimeMetrics {
  /** `receivers` connections were written one `event` (event names are the service's own). */
  sent(event: string, receivers: number): void;
  /** A droppable event (`typing`, `status_change`) skipped a connection whose queue was half full. */
  dropped(event: string): void;
  /** A socket was cut off: its send queue filled, or no pong came within the read deadline. */
  disconnected(reason: 'slow_consumer' | 'read_deadline'): void;
  /** From the event's time at its producer until this replica has written it to every receiver. */
  fanOut(seconds: number): void;
}

/**
 * Who is online across every realtime replica (`get_statuses`, `get_statuses_by_ids`). Each replica tells
 * it when one of its users gets a first live socket or loses the last one; the store answers for all.
 */
export interface PresenceStore {
  /** This replica's view of the user changed. Never throws: a failed write is retried by the adapter's refresh. */
  set(userId: string, online: boolean): void;
  /** Of these users, those online on any replica. */
  onlineAmong(userIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** Every user online on any replica. */
  onlineUsers(): Promise<readonly string[]>;
  /** This replica leaves: its users no longer count as online through it. */
  close(): Promise<void>;
  /**
   * Whether this replica applies the effects that every replica's event stream carries but that must happen
   * once (a REST post's status): the first live replica by id, as this replica last saw them (Redis: at its
   * refresh, every third of the TTL). A replica alone always leads. ADR 0038.
   */
  leads(): boolean;
}
