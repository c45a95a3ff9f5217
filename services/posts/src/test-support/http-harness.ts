import { inject, type InjectOptions, type Response } from 'light-my-request';
import { ManualClock, newId } from '@switchyard/ids';
import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport, serviceCredential, signIdentity } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';
import { createPostsApp, type PostsApp } from '../app';
import { memoryRepositories } from '../adapters/memory';
import type { PostsRepositories } from '../domain/ports';
import { FakeUsers } from './fake-users';
import { RecordingSink } from './recording-sink';

export const SECRET = 'test-internal-secret-0123456789abcdef';

export interface Caller {
  readonly id: string;
  readonly roles: string;
  readonly isBot?: boolean;
  readonly username?: string;
}

export interface PostsHarness {
  readonly app: PostsApp;
  readonly bus: MemoryEventBus;
  readonly sink: RecordingSink;
  readonly users: FakeUsers;
  readonly clock: ManualClock;
  readonly repositories: PostsRepositories;
  request(method: string, url: string, options?: { as?: Caller; body?: unknown; raw?: string; /** Sign the call as this service (internal routes). */ internal?: string }): Promise<Response>;
  /** A user (system_user unless roles say otherwise), member of `teamId` when given. */
  user(options?: { roles?: string; isBot?: boolean; teamId?: string; teamRoles?: string }): Caller;
  team(): string;
  /** An open (or private) channel created through the API by `creator`. */
  channel(creator: Caller, teamId: string, type?: 'O' | 'P'): Promise<{ id: string; name: string }>;
  join(channelId: string, caller: Caller, as?: Caller): Promise<void>;
  post(as: Caller, channelId: string, body?: Record<string, unknown>): Promise<Response>;
  setConfig(change: (config: SystemConfig) => void): void;
  stop(): Promise<void>;
}

/** A started posts app over memory repositories, a fake users-bots and a recording event sink. */
export async function postsHarness(options: { repositories?: PostsRepositories; sink?: RecordingSink; users?: FakeUsers; clock?: ManualClock; /** INTERNAL_SECRET_SECONDARY (a rotation in progress). */ secondarySecret?: string; /** Where the local file store lives (file tests). */ dataDir?: string } = {}): Promise<PostsHarness> {
  const bus = new MemoryEventBus();
  const sink = options.sink ?? new RecordingSink();
  const users = options.users ?? new FakeUsers();
  const clock = options.clock ?? new ManualClock(Date.now());
  const repositories = options.repositories ?? memoryRepositories();
  const app = createPostsApp(
    { PORT: 0, INTERNAL_SECRET: SECRET, INTERNAL_SECRET_SECONDARY: options.secondarySecret, LOG_LEVEL: 'error', LOG_FORMAT: 'json', OUTBOX_SWEEP_INTERVAL_MS: 0, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}) },
    { logger: createSilentLogger(), bus, transport: new InProcessTransport(), repositories, clock, users, userNames: users, events: sink },
  );
  app.liveConfig.replace(defaultSystemConfig());
  await app.start().catch(() => undefined);

  const request: PostsHarness['request'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = {};
    if (opts.as) Object.assign(headers, signIdentity({ userId: opts.as.id, sessionId: 's', roles: opts.as.roles, isBot: opts.as.isBot ?? false, sessionType: 'session' }, SECRET, { method, target: url }));
    if (opts.internal) Object.assign(headers, serviceCredential(opts.internal, SECRET).headers(method, url));
    const injectOptions: InjectOptions = { method: method as 'GET', url, headers };
    if (opts.raw !== undefined) injectOptions.payload = opts.raw;
    else if (opts.body !== undefined) injectOptions.payload = JSON.stringify(opts.body);
    if (injectOptions.payload !== undefined) headers['content-type'] = 'application/json';
    return inject(app.handler, injectOptions);
  };

  const harness: PostsHarness = {
    app,
    bus,
    sink,
    users,
    clock,
    repositories,
    request,
    user: (o = {}) => {
      const id = newId();
      const roles = o.roles ?? 'system_user';
      const username = `u${id.slice(0, 8)}`;
      users.addUser(id, username, o.isBot ?? false, roles);
      if (o.teamId) users.join(o.teamId, id, o.teamRoles ?? 'team_user');
      return { id, roles, isBot: o.isBot ?? false, username };
    },
    team: () => {
      const id = newId();
      users.addTeam(id, `team${id.slice(0, 6)}`);
      return id;
    },
    channel: async (creator, teamId, type = 'O') => {
      const name = `c${newId().slice(0, 10)}`;
      const res = await request('POST', '/api/v4/channels', { as: creator, body: { team_id: teamId, name, display_name: name, type } });
      if (res.statusCode !== 201) throw new Error(`channel create failed: ${res.statusCode} ${res.body}`);
      return { id: (res.json() as { id: string }).id, name };
    },
    join: async (channelId, caller, as) => {
      const res = await request('POST', `/api/v4/channels/${channelId}/members`, { as: as ?? caller, body: { user_id: caller.id } });
      if (res.statusCode !== 201) throw new Error(`join failed: ${res.statusCode} ${res.body}`);
    },
    post: (as, channelId, body = {}) => request('POST', '/api/v4/posts', { as, body: { channel_id: channelId, message: 'hello', ...body } }),
    setConfig: (change) => {
      const next = structuredClone(app.liveConfig.current());
      change(next);
      app.liveConfig.replace(next);
    },
    stop: async () => {
      await app.stop();
      await bus.close();
    },
  };
  return harness;
}
