import { hostname } from 'node:os';
import { newId } from '@switchyard/ids';
import { Connection, type ConnectionLimits, type ConnectionSession, type SocketPort } from './connection';
import type { MembershipCache } from './membership-cache';
import type { Clock } from './ports';
import { broadcast, eventPrefix, type WsEvent } from './ws-event';

export interface HubOptions {
  readonly membership: MembershipCache;
  readonly clock: Clock;
  readonly limits: ConnectionLimits;
  /** How long a connection whose socket went away is kept for a reconnect (the reference: about 5 min). */
  readonly reconnectWindowMs: number;
  /** `server_version` of hello events when the upgrade named none. */
  readonly defaultServerVersion: string;
}

export interface OpenRequest {
  /** Authenticated at the upgrade (header or cookie), or undefined (authentication_challenge later). */
  readonly session?: ConnectionSession;
  /** `connection_id` of the query ('' = none). */
  readonly connectionId: string;
  /** `sequence_number` of the query. */
  readonly sequenceNumber: number;
  readonly serverVersion?: string;
}

/**
 * This replica's connections and the delivery filter (mattermost-wire-2.md §1.4): an event goes to the
 * connection it names, else to its user's connections, else to the members of its channel or team (or
 * everyone), minus `omit_users`, with the sanitised/sensitive split by manage_system.
 */
export class Hub {
  private readonly byId = new Map<string, Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly host = hostname();

  public constructor(private readonly options: HubOptions) {}

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
        old.detach();
        previous?.terminate();
        old.attach(socket, now);
        old.session = session;
        if (old.resume(request.sequenceNumber)) return old;
        old.detach();
        this.forget(old);
      }
    }
    const conn = new Connection(newId(), this.options.limits, now);
    conn.attach(socket, now);
    if (session) this.authenticate(conn, session, request.serverVersion);
    return conn;
  }

  /** Registers the connection for its user and writes `hello` (seq 0), then `status_change` online if the user just came online. */
  public authenticate(conn: Connection, session: ConnectionSession, serverVersion?: string): void {
    const wasOnline = this.online(session.userId);
    conn.session = session;
    this.byId.set(conn.id, conn);
    let set = this.byUser.get(session.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(session.userId, set);
    }
    set.add(conn);
    conn.write(
      eventPrefix({
        event: 'hello',
        data: { connection_id: conn.id, server_hostname: this.host, server_version: serverVersion ?? this.options.defaultServerVersion },
        broadcast: broadcast({ user_id: session.userId }),
      }),
    );
    if (!wasOnline) {
      conn.write(eventPrefix({ event: 'status_change', data: { status: 'online', user_id: session.userId }, broadcast: broadcast({ user_id: session.userId }) }), true);
    }
  }

  /** The socket closed: an authenticated connection stays (away) for a reconnect; others are dropped. */
  public socketClosed(conn: Connection, socket: SocketPort): void {
    if (conn.socket !== socket) return;
    conn.detach();
    conn.lastActivity = this.options.clock.now();
    if (!conn.authenticated) this.forget(conn);
  }

  /** Closes and forgets (no reconnect replay) every connection matching, e.g. of a revoked session. */
  public closeWhere(match: (conn: Connection) => boolean, code = 1000, reason = ''): number {
    let closed = 0;
    for (const conn of [...this.byId.values()]) {
      if (!match(conn)) continue;
      const socket = conn.socket;
      conn.detach();
      this.forget(conn);
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

  /** Every connection of this replica (shutdown). */
  public all(): Connection[] {
    return [...this.byId.values()];
  }

  /** Delivers one event to every connection of this replica allowed to receive it; returns how many got it. */
  public async deliver(event: WsEvent): Promise<number> {
    const b = event.broadcast;
    let targets: readonly Connection[];
    if (b.connection_id !== '') {
      const conn = this.byId.get(b.connection_id);
      targets = conn ? [conn] : [];
    } else if (b.user_id !== '') {
      targets = this.connectionsOf(b.user_id);
    } else {
      if (this.byUser.size === 0) return 0;
      let users: string[];
      if (b.channel_id !== '') {
        const members = await this.options.membership.channelMembers(b.channel_id);
        if (!members) return 0;
        users = members.size < this.byUser.size ? [...members].filter((u) => this.byUser.has(u)) : [...this.byUser.keys()].filter((u) => members.has(u));
      } else {
        users = [...this.byUser.keys()];
      }
      if (b.omit_users) users = users.filter((u) => b.omit_users?.[u] !== true);
      if (b.team_id !== '') {
        const teamId = b.team_id;
        const inTeam = await Promise.all(users.map((u) => this.options.membership.isTeamMember(teamId, u).catch(() => false)));
        users = users.filter((_, i) => inTeam[i]);
      }
      targets = users.flatMap((u) => this.connectionsOf(u));
    }
    let prefix: string | undefined;
    let delivered = 0;
    for (const conn of targets) {
      if (!conn.authenticated || (b.omit_connection_id !== '' && conn.id === b.omit_connection_id)) continue;
      if (b.omit_users?.[conn.userId] === true) continue;
      if ((b.contains_sanitized_data === true && conn.isAdmin) || (b.contains_sensitive_data === true && !conn.isAdmin)) continue;
      const extra = event.dataFor?.(conn.userId);
      if (extra) {
        conn.write(eventPrefix(event, extra), event.droppable);
      } else {
        prefix ??= eventPrefix(event);
        conn.write(prefix, event.droppable);
      }
      delivered += 1;
      if (conn.lost) this.forget(conn);
    }
    return delivered;
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
