import { newId } from '@switchyard/ids';
import { Connection, type ConnectionSession, type SocketPort } from './connection';
import { CursorExpiredError } from './stream/history';
import type { EventOrigin, HubOptions, OpenRequest } from './hub-options';
import { broadcast, eventPrefix, type Broadcast, type EventPrefix, type WsEvent } from './ws-event';

export type { EventOrigin, HubCursors, HubOptions, OpenRequest } from './hub-options';

/**
 * This replica's connections and the delivery filter (mattermost-wire-2.md §1.4): an event goes to the
 * connection it names, else to its user's connections, else to the members of its channel or team (or
 * everyone), minus `omit_users`, with the sanitised/sensitive split by manage_system.
 */
export class Hub {
  private readonly byId = new Map<string, Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly host: string;

  public constructor(private readonly options: HubOptions) {
    this.host = options.hostname ?? '';
  }

  /** Connections that are authenticated (connected or away). */
  public get size(): number {
    return this.byId.size;
  }

  public get userCount(): number {
    return this.byUser.size;
  }

  public connectionsOf(userId: string): readonly Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  public get(connectionId: string): Connection | undefined {
    return this.byId.get(connectionId);
  }

  /** Whether one of the user's connections on this replica has a live socket. */
  public online(userId: string): boolean {
    for (const conn of this.byUser.get(userId) ?? []) if (conn.connected) return true;
    return false;
  }

  public onlineUsers(): string[] {
    return [...this.byUser.keys()].filter((userId) => this.online(userId));
  }

  /**
   * A new socket (mattermost-wire-2.md §1.5): a known connection of the same user whose log still holds
   * `sequence_number` is resumed (missed events replayed, no hello); otherwise a new connection, which
   * gets `hello` at once when the upgrade was authenticated.
   */
  public open(socket: SocketPort, request: OpenRequest): Connection {
    const now = this.options.clock.now();
    const session = request.session;
    if (session && request.connectionId !== '') {
      const old = this.byId.get(request.connectionId);
      if (old && old.userId === session.userId) {
        const previous = old.socket;
        const wasOnline = this.online(old.userId);
        old.detach();
        previous?.terminate();
        old.attach(socket, now);
        this.presenceAfter(old.userId, wasOnline);
        old.session = session;
        if (old.resume(request.sequenceNumber)) return old;
        old.detach();
        this.forget(old);
      }
    }
    const conn = new Connection(newId(), this.options.limits, now);
    conn.attach(socket, now);
    if (session) this.authenticate(conn, session, request.serverVersion, request.cursor);
    return conn;
  }

  /** Registers the connection for its user and writes `hello` (seq 0), then `status_change` online if the user just came online. */
  public authenticate(conn: Connection, session: ConnectionSession, serverVersion?: string, cursor?: unknown): void {
    const wasOnline = this.online(session.userId);
    conn.session = session;
    const cursors = this.options.cursors;
    conn.cursorTail = cursors?.tail(session.userId);
    const resume = cursors?.check(cursor, session.userId);
    this.byId.set(conn.id, conn);
    let set = this.byUser.get(session.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(session.userId, set);
    }
    set.add(conn);
    this.presenceAfter(session.userId, wasOnline);
    const head = cursors?.now();
    conn.write(
      eventPrefix({
        event: 'hello',
        data: {
          connection_id: conn.id,
          server_hostname: this.host,
          server_version: serverVersion ?? this.options.defaultServerVersion,
          ...(resume ? { resume: resume.status } : {}),
        },
        broadcast: broadcast({ user_id: session.userId }),
      }),
      false,
      head,
    );
    if (!wasOnline) {
      const statusChange = (at: Buffer | undefined): void => {
        conn.write(eventPrefix({ event: 'status_change', data: { status: 'online', user_id: session.userId }, broadcast: broadcast({ user_id: session.userId }) }), true, at);
      };
      const check = this.options.comesOnline;
      if (!check) statusChange(head);
      else {
        // Later than hello: the cursor is the stream's position when it is written.
        const later = (): void => statusChange(cursors?.now());
        check(session.userId).then(
          (announce) => {
            if (announce && conn.socket) later();
          },
          later,
        );
      }
    }
    // In this turn: live events from now on wait until the replay is written.
    // A cursor the log no longer has (its retention shorter than EventSettings.RetentionHours) closes with `cursor expired`.
    if (cursors && resume?.position) void cursors.replay(conn, resume.position).catch((error: unknown) => conn.socket?.close(1011, error instanceof CursorExpiredError ? 'cursor expired' : 'resume failed'));
  }

  /** The socket closed: an authenticated connection stays (away) for a reconnect; others are dropped. */
  public socketClosed(conn: Connection, socket: SocketPort): void {
    if (conn.socket !== socket) return;
    const wasOnline = this.online(conn.userId);
    conn.detach();
    this.presenceAfter(conn.userId, wasOnline);
    conn.lastActivity = this.options.clock.now();
    if (!conn.authenticated) this.forget(conn);
  }

  /** Closes and forgets (no reconnect replay) every connection matching, e.g. of a revoked session. */
  public closeWhere(match: (conn: Connection) => boolean, code = 1000, reason = ''): number {
    let closed = 0;
    for (const conn of [...this.byId.values()]) {
      if (!match(conn)) continue;
      const socket = conn.socket;
      const wasOnline = this.online(conn.userId);
      conn.detach();
      this.forget(conn);
      this.presenceAfter(conn.userId, wasOnline);
      socket?.close(code, reason);
      closed += 1;
    }
    return closed;
  }

  /** Drops away connections older than the reconnect window (and those past their queue). */
  public reap(): number {
    const oldest = this.options.clock.now() - this.options.reconnectWindowMs;
    let dropped = 0;
    for (const conn of [...this.byId.values()]) {
      if (!conn.connected && (conn.lastActivity < oldest || conn.lost)) {
        this.forget(conn);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** Sessions past their expiry are closed (the reference re-reads the session and stops delivering). */
  public closeExpired(): number {
    const now = this.options.clock.now();
    return this.closeWhere((conn) => conn.session !== undefined && conn.session.expiresAt > 0 && conn.session.expiresAt <= now, 1000, 'session expired');
  }

  /** Connections with a live socket and those away (kept for a reconnect), and their frames in flight. */
  public counts(): { connected: number; away: number; queued: number } {
    let connected = 0;
    let queued = 0;
    for (const conn of this.byId.values()) {
      if (conn.connected) connected += 1;
      queued += conn.queued;
    }
    return { connected, away: this.byId.size - connected, queued };
  }

  /** Every connection of this replica (shutdown). */
  public all(): Connection[] {
    return [...this.byId.values()];
  }

  /**
   * Delivers one event to every connection of this replica allowed to receive it; returns how many got it.
   * One membership lookup per event; the event is encoded once (once per receiver with extra data).
   */
  public async deliver(event: WsEvent, origin?: EventOrigin): Promise<number> {
    const groups = await this.audience(event.broadcast, event.membersAfterEvents === true, event.at);
    let prefix: EventPrefix | undefined;
    let head: Buffer | undefined;
    /** Written to a live socket or, for an away connection, logged for its reconnect. */
    let delivered = 0;
    /** Handed to a live socket. */
    let sent = 0;
    for (const group of groups) {
      for (const conn of group) {
        if (!this.admits(event.broadcast, conn)) continue;
        if (origin && conn.floor && origin.offset < (conn.floor[origin.topic]?.[origin.partition] ?? 0)) continue;
        if (conn.cursorTail) head ??= origin?.head() ?? this.options.cursors?.now();
        const extra = event.dataFor?.(conn.userId);
        const wasConnected = conn.connected;
        let written: boolean;
        if (extra) {
          written = conn.write(eventPrefix(event, extra), event.droppable, head);
        } else {
          prefix ??= eventPrefix(event);
          written = conn.write(prefix, event.droppable, head);
        }
        if (written) delivered += 1;
        else this.options.metrics?.dropped(event.event);
        if (written && conn.connected) sent += 1;
        else if (wasConnected && conn.overflowed && !conn.connected) this.options.metrics?.disconnected('slow_consumer');
        if (wasConnected && !conn.connected) this.presenceAfter(conn.userId, true);
        if (conn.lost) this.forget(conn);
      }
    }
    if (sent > 0) this.options.metrics?.sent(event.event, sent);
    return delivered;
  }

  /** The connections an event may go to, grouped by user (§1.4 steps 4–9; per-connection checks in `admits`). */
  private async audience(b: Broadcast, membersAfterEvents: boolean, at: number | undefined): Promise<Iterable<Connection>[]> {
    if (b.connection_id !== '') {
      const conn = this.byId.get(b.connection_id);
      return conn ? [[conn]] : [];
    }
    if (b.user_id !== '') {
      const set = this.byUser.get(b.user_id);
      return set ? [set] : [];
    }
    if (this.byUser.size === 0) return [];
    let users: string[] = [];
    if (b.channel_id !== '') {
      const members = membersAfterEvents ? await this.options.membership.membersAfterEvents(b.channel_id) : await this.options.membership.channelMembers(b.channel_id, at);
      if (!members) return [];
      if (members.size < this.byUser.size) {
        for (const u of members) if (this.byUser.has(u)) users.push(u);
      } else {
        for (const u of this.byUser.keys()) if (members.has(u)) users.push(u);
      }
    } else {
      users = [...this.byUser.keys()];
    }
    const omit = b.omit_users;
    if (omit) users = users.filter((u) => omit[u] !== true);
    if (b.team_id !== '') users = await this.options.membership.teamMembersAmong(b.team_id, users);
    const groups: Iterable<Connection>[] = [];
    for (const u of users) {
      const set = this.byUser.get(u);
      if (set) groups.push(set);
    }
    return groups;
  }

  private admits(b: Broadcast, conn: Connection): boolean {
    if (!conn.authenticated || (b.omit_connection_id !== '' && conn.id === b.omit_connection_id)) return false;
    if (b.omit_users?.[conn.userId] === true) return false;
    if (b.contains_sanitized_data === true && conn.isAdmin) return false;
    if (b.contains_sensitive_data === true && !conn.isAdmin) return false;
    return true;
  }

  /** Tells the presence store when the user's online state on this replica changed. */
  private presenceAfter(userId: string, wasOnline: boolean): void {
    const online = this.online(userId);
    if (online !== wasOnline) this.options.presence?.set(userId, online);
  }

  private forget(conn: Connection): void {
    this.byId.delete(conn.id);
    const set = this.byUser.get(conn.userId);
    if (set) {
      set.delete(conn);
      if (set.size === 0) this.byUser.delete(conn.userId);
    }
  }
}
