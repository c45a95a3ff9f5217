import { inject, type InjectOptions, type Response } from 'light-my-request';
import { InProcessTransport, signIdentity } from '@switchyard/http-kit';
import { MemoryEventBus, type OutgoingMessage } from '@switchyard/event-bus';
import { defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';
import { createIncomingHooksApp, type IncomingHooksApp } from '../app';
import { ManualClock, newId } from '@switchyard/ids';
import type { Actor, HookRateLimiter } from '../domain/ports';
import { FakeChannelDirectory, FakeUserDirectory, RecordingHookFiles } from './fakes';
import { FakePostsService } from './fake-posts';
import { silentLogger } from './domain-harness';
import type { Logger } from '@switchyard/logger';

export const SECRET = 'test-internal-secret-0123456789abcdef';

export interface Published {
  readonly topic: string;
  readonly key: string;
  readonly value: { id: string; type: string; payload: { post: Record<string, unknown> & { id: string; message: string; props: Record<string, unknown>; create_at: number; channel_id: string; type: string } } & Record<string, unknown> };
}

/** A memory bus that records what is published, and can be made to fail (a broker outage). */
export class RecordingBus extends MemoryEventBus {
  public readonly published: Published[] = [];
  public fail: Error | undefined;

  public override async publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    if (this.fail) throw this.fail;
    for (const m of messages) this.published.push({ topic, key: m.key, value: JSON.parse(JSON.stringify(m.value)) as Published['value'] });
    await super.publish(topic, messages);
  }

  public commands(): Published[] {
    return this.published.filter((p) => p.topic === 'posts.commands');
  }
}

export interface HttpHarness {
  readonly app: IncomingHooksApp;
  readonly bus: RecordingBus;
  /** Answers the create commands on the bus as posts does. */
  readonly posts: FakePostsService;
  /** posts' hook-file uploads, recorded. */
  readonly files: RecordingHookFiles;
  readonly channels: FakeChannelDirectory;
  readonly users: FakeUserDirectory;
  readonly clock: ManualClock;
  readonly teamId: string;
  readonly admin: Actor;
  readonly teamAdmin: Actor;
  readonly member: Actor;
  readonly town: ReturnType<FakeChannelDirectory['add']>;
  request(method: string, url: string, options?: { as?: Actor; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> }): Promise<Response>;
  /** A hook created through the API by the team admin (unless `as` says otherwise); returns its JSON. */
  createHook(body?: Record<string, unknown>, as?: Actor): Promise<Record<string, unknown> & { id: string }>;
  setConfig(change: (config: SystemConfig) => void): void;
  stop(): Promise<void>;
}

/** The gateway's signed identity for one request: `method` and `url` (path and query) exactly as sent. */
export function identityHeaders(actor: Actor, method: string, url: string): Record<string, string> {
  return signIdentity({ userId: actor.userId, sessionId: 'sess', roles: actor.roles, isBot: false, sessionType: 'session' }, SECRET, { method, target: url });
}

/** The incoming-hooks app with fake directories (posts, users-bots), a recording bus and a manual clock. */
export async function httpHarness(options: { rateLimiter?: HookRateLimiter; logger?: Logger; storedAckTimeoutMs?: number; hookSpoolDir?: string } = {}): Promise<HttpHarness> {
  const bus = new RecordingBus();
  const posts = new FakePostsService(bus);
  await posts.start();
  const channels = new FakeChannelDirectory();
  const users = new FakeUserDirectory();
  const files = new RecordingHookFiles();
  const clock = new ManualClock(Date.now());
  const app = createIncomingHooksApp(
    { PORT: 0, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', LOG_FORMAT: 'json', ...(options.storedAckTimeoutMs ? { STORED_ACK_TIMEOUT_MS: options.storedAckTimeoutMs } : {}) },
    { logger: options.logger ?? silentLogger, bus, transport: new InProcessTransport(), channels, users, hookFiles: files, clock, directoryCacheMs: 0, ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}), ...(options.hookSpoolDir ? { hookSpoolDir: options.hookSpoolDir } : {}) },
  );
  app.liveConfig.replace(defaultSystemConfig());
  await app.start();
  const teamId = newId();
  const person = (username: string, roles: string, teamRoles: string): Actor => {
    const user = users.add(username, { roles });
    users.joinTeam(teamId, user.id, teamRoles);
    return { userId: user.id, roles };
  };
  const admin = person('root', 'system_user system_admin', 'team_user');
  const teamAdmin = person('tadmin', 'system_user', 'team_user team_admin');
  const member = person('member', 'system_user', 'team_user');
  const town = channels.add({ team_id: teamId, type: 'O', name: 'town-square' });

  const request: HttpHarness['request'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.as ? identityHeaders(opts.as, method, url) : {}), ...(opts.headers ?? {}) };
    const injectOptions: InjectOptions = { method: method as 'GET', url, headers };
    if (opts.raw !== undefined) injectOptions.payload = opts.raw;
    else if (opts.body !== undefined) {
      injectOptions.payload = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return inject(app.handler, injectOptions);
  };

  return {
    app,
    bus,
    posts,
    files,
    channels,
    users,
    clock,
    teamId,
    admin,
    teamAdmin,
    member,
    town,
    request,
    createHook: async (body = {}, as = teamAdmin) => {
      const res = await request('POST', '/api/v4/hooks/incoming', { as, body: { channel_id: town.id, display_name: 'CI', ...body } });
      if (res.statusCode !== 201) throw new Error(`hook create failed: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown> & { id: string };
    },
    setConfig: (change) => {
      const next = structuredClone(app.liveConfig.current()) as SystemConfig;
      change(next);
      app.liveConfig.replace(next);
    },
    stop: async () => {
      await app.stop();
      await posts.stop();
      await bus.close();
    },
  };
}
