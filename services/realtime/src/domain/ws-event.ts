/** `broadcast` of a server event (mattermost-wire-2.md §1.3, newest form). */
export interface Broadcast {
  readonly omit_users: Readonly<Record<string, true>> | null;
  readonly user_id: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly connection_id: string;
  readonly omit_connection_id: string;
  /** Only for users without manage_system. */
  readonly contains_sanitized_data?: boolean;
  /** Only for users with manage_system. */
  readonly contains_sensitive_data?: boolean;
}

/** One event to deliver; `data` keys are sorted when it is written (the reference writes a Go map). */
export interface WsEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly broadcast: Broadcast;
  /** Dropped for a connection whose send queue is half full (`typing`, `status_change`). */
  readonly droppable?: boolean;
  /**
   * A channel event about the channel's membership itself (`user_added`, `user_removed`): its audience is
   * the member set as the membership events handled so far left it, without reading it again after each.
   */
  readonly membersAfterEvents?: boolean;
  /**
   * When it happened (ms, the envelope's `time`): channel members read before then are read again, so a
   * join made before it reaches the new member even when the join's own record is handled after it.
   */
  readonly at?: number;
  /** Extra `data` for one receiving user (e.g. `mentions` when they are mentioned); undefined = none. */
  readonly dataFor?: (userId: string) => Readonly<Record<string, unknown>> | undefined;
}

export function broadcast(fields: Partial<Broadcast> = {}): Broadcast {
  return { omit_users: null, user_id: '', channel_id: '', team_id: '', connection_id: '', omit_connection_id: '', ...fields };
}

function sortedData(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data).sort()) if (data[key] !== undefined) out[key] = data[key];
  return out;
}

/** An event's JSON up to its `seq` value, UTF-8 encoded once and shared by every connection that gets it. */
export type EventPrefix = Buffer;

/**
 * The event's JSON without its closing `seq`: `{"event": "posted", "data": {…}, "broadcast": {…}, "seq": `.
 * Encoded once per event (or once per receiver with extra data) and completed per connection by its socket
 * (`<seq>}`, framed in the same buffer).
 */
export function eventPrefix(event: WsEvent, extra?: Readonly<Record<string, unknown>>): EventPrefix {
  const data = sortedData(extra ? { ...event.data, ...extra } : event.data);
  return Buffer.from(`{"event": ${JSON.stringify(event.event)}, "data": ${JSON.stringify(data)}, "broadcast": ${JSON.stringify(event.broadcast)}, "seq": `, 'utf8');
}
