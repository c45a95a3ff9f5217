import type { InternalUser } from '@switchyard/contracts';
import type { ActionDeps } from '../domain/actions/action-router';
import type { Connection, ConnectionSession, SocketPort } from '../domain/connection';
import { Hub } from '../domain/hub';
import { MembershipCache } from '../domain/membership-cache';
import { MemoryDirectory } from '../adapters/memory/directory.memory';
import { MemoryPresence } from '../adapters/memory/presence.memory';
import type { EventPrefix } from '../domain/ws-event';

/** A socket that records frames; `flush()` acknowledges what was sent (the kernel took it). */
export class RecordingSocket implements SocketPort {
  public readonly sent: string[] = [];
  public closedWith: number | undefined;
  public terminated = false;
  private pending = 0;

  public constructor(private readonly autoFlush = true) {}

  public sendEvent(prefix: EventPrefix, seq: number, head?: Buffer, tail?: Buffer): void {
    const cursor = head && tail ? `${head.toString('utf8')}${tail.toString('utf8')}` : '';
    this.send(`${prefix.toString('utf8')}${seq}${cursor}}`);
  }

  public send(text: string): void {
    this.sent.push(text);
    if (!this.autoFlush) this.pending += 1;
  }

  public get backlog(): number {
    return this.pending;
  }

  public closeReason: string | undefined;

  public close(code = 1000, reason?: string): void {
    this.closedWith = code;
    this.closeReason = reason;
  }

  public terminate(): void {
    this.terminated = true;
  }

  public flush(): void {
    this.pending = 0;
  }

  public frames(): Record<string, unknown>[] {
    return this.sent.map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  public events(name?: string): Record<string, unknown>[] {
    return this.frames().filter((f) => typeof f.event === 'string' && (name === undefined || f.event === name));
  }
}

export class ManualClock {
  public constructor(public time = 1_000_000) {}

  public now(): number {
    return this.time;
  }
}

export function session(userId: string, extra: Partial<ConnectionSession> = {}): ConnectionSession {
  return { userId, sessionId: `s-${userId}`, roles: 'system_user', isBot: false, expiresAt: 0, ...extra };
}

export function user(id: string, username: string, extra: Partial<InternalUser> = {}): InternalUser {
  return { id, username, roles: 'system_user', isBot: false, deleteAt: 0, firstName: '', lastName: '', nickname: '', ...extra };
}

export interface World {
  readonly directory: MemoryDirectory;
  readonly clock: ManualClock;
  readonly membership: MembershipCache;
  readonly presence: MemoryPresence;
  readonly hub: Hub;
}

export function world(limits = { sendQueue: 8, replayBuffer: 4 }): World {
  const directory = new MemoryDirectory();
  const clock = new ManualClock();
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 60_000, maxChannels: 100, maxTeamEntries: 100 });
  const presence = new MemoryPresence();
  const hub = new Hub({ membership, clock, limits, reconnectWindowMs: 300_000, defaultServerVersion: '10.0.0.test.0.false', presence });
  return { directory, clock, membership, presence, hub };
}

export const ROUTER_CHANNEL = 'c'.repeat(26);

export interface RouterWorld {
  readonly w: World;
  readonly deps: ActionDeps;
  /** [channel, user, parent] of every published typing. */
  readonly typed: string[][];
  readonly socket: RecordingSocket;
  /** Unauthenticated; `good-token` authenticates it as u1, a member of ROUTER_CHANNEL. */
  readonly conn: Connection;
}

/** The action router's arrange: u1 with `good-token` in ROUTER_CHANNEL, a fresh socket, typing recorded. */
export function routerWorld(): RouterWorld {
  const w = world();
  const typed: string[][] = [];
  w.directory.addSession('good-token', { userId: 'u1', sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: '', expiresAt: 0 });
  w.directory.addChannelMember(ROUTER_CHANNEL, 'u1');
  const deps: ActionDeps = {
    hub: w.hub,
    sessions: w.directory,
    membership: w.membership,
    typing: { typing: async (c, u, p) => void typed.push([c, u, p]) },
    presence: w.presence,
    clock: w.clock,
    currentVersion: '10.0.0',
    onAuthenticated: () => undefined,
  };
  const socket = new RecordingSocket();
  const conn = w.hub.open(socket, { connectionId: '', sequenceNumber: 0 });
  return { w, deps, typed, socket, conn };
}
