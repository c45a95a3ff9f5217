import type { InternalUser } from '@switchyard/contracts';
import type { ConnectionSession, SocketPort } from '../domain/connection';
import { Hub } from '../domain/hub';
import { MembershipCache } from '../domain/membership-cache';
import { MemoryDirectory } from '../adapters/memory/directory.memory';

/** A socket that records frames; `flush()` acknowledges what was sent (the kernel took it). */
export class RecordingSocket implements SocketPort {
  public readonly sent: string[] = [];
  public closedWith: number | undefined;
  public terminated = false;
  private pending: ((error?: Error) => void)[] = [];

  public constructor(private readonly autoFlush = true) {}

  public send(frame: Buffer | string, done: (error?: Error) => void): void {
    this.sent.push(String(frame));
    if (this.autoFlush) done();
    else this.pending.push(done);
  }

  public close(code = 1000): void {
    this.closedWith = code;
  }

  public terminate(): void {
    this.terminated = true;
  }

  public flush(): void {
    const pending = this.pending;
    this.pending = [];
    for (const done of pending) done();
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
  readonly hub: Hub;
}

export function world(limits = { sendQueue: 8, replayBuffer: 4 }): World {
  const directory = new MemoryDirectory();
  const clock = new ManualClock();
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 60_000, maxChannels: 100, maxTeamEntries: 100 });
  const hub = new Hub({ membership, clock, limits, reconnectWindowMs: 300_000, defaultServerVersion: '10.0.0.test.0.false' });
  return { directory, clock, membership, hub };
}
