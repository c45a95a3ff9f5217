import { inject, type InjectOptions, type Response } from 'light-my-request';
import { serviceCredential, signIdentity, type ServiceTransport } from '@switchyard/http-kit';
import { createApp, type UsersBotsApp } from '../app';
import { ManualClock } from '@switchyard/ids';
import { fastHasher, silentLogger } from './domain-harness';
import { RecordingBus } from './recording-bus';

export const SECRET = 'test-internal-secret-0123456789abcdef';

export interface Caller {
  readonly id: string;
  readonly roles: string;
  readonly isBot?: boolean;
  readonly sessionId?: string;
}

export interface HttpHarness {
  readonly app: UsersBotsApp;
  readonly bus: RecordingBus;
  readonly clock: ManualClock;
  /** `service`: sign the call as that service (internal routes). */
  request(method: string, url: string, options?: { as?: Caller; service?: string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> }): Promise<Response>;
  /** The first user: a system admin. */
  admin(): Promise<Caller>;
  /** Declares the admin when a test created the first user itself. */
  useAdmin(caller: Caller): void;
  /** A user created by the admin (system_user unless roles are given). */
  user(options?: { username?: string; roles?: string; password?: string }): Promise<Caller & { username: string; email: string }>;
  patchConfig(patch: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

let counter = 0;

/** The gateway's signed identity for one request: `method` and `url` (path and query) exactly as sent. */
export function identityHeaders(caller: Caller, method: string, url: string): Record<string, string> {
  return signIdentity(
    { userId: caller.id, sessionId: caller.sessionId ?? 'sess', roles: caller.roles, isBot: caller.isBot ?? false, sessionType: 'session' },
    SECRET,
    { method, target: url },
  );
}

/** Service credential headers for one internal call, as `service` signs it. */
export function serviceHeaders(service: string, method: string, url: string, secret = SECRET): Record<string, string> {
  return serviceCredential(service, secret).headers(method, url);
}

/** A started users-bots app driven with light-my-request, identities signed as the gateway would. */
export async function httpHarness(options: { transport?: ServiceTransport } = {}): Promise<HttpHarness> {
  const bus = new RecordingBus();
  const clock = new ManualClock(Date.now());
  const app = createApp(
    { PORT: 0, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', LOG_FORMAT: 'json' },
    { logger: silentLogger, bus, clock, passwordHasher: fastHasher, ...(options.transport ? { transport: options.transport } : {}) },
  );
  await app.start();
  let adminCaller: Caller | undefined;

  const request: HttpHarness['request'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = {
      ...(options.as ? identityHeaders(options.as, method, url) : {}),
      ...(options.service ? serviceHeaders(options.service, method, url) : {}),
      ...(options.headers ?? {}),
    };
    const opts: InjectOptions = { method: method as 'GET', url, headers };
    if (options.raw !== undefined) opts.payload = options.raw;
    else if (options.body !== undefined) opts.payload = JSON.stringify(options.body);
    if (opts.payload !== undefined) headers['content-type'] ??= 'application/json';
    return inject(app.handler, opts);
  };

  const admin = async (): Promise<Caller> => {
    if (adminCaller) return adminCaller;
    const res = await request('POST', '/api/v4/users', { body: { username: 'admin', email: 'admin@example.com', password: 'password-1' } });
    if (res.statusCode !== 201) throw new Error(`admin signup failed: ${res.statusCode} ${res.body}`);
    const body = res.json() as { id: string; roles: string };
    adminCaller = { id: body.id, roles: body.roles };
    return adminCaller;
  };

  return {
    app,
    bus,
    clock,
    request,
    admin,
    useAdmin: (caller) => {
      adminCaller = caller;
    },
    user: async (options = {}) => {
      const as = await admin();
      counter += 1;
      const username = options.username ?? `user${counter}-${Math.random().toString(36).slice(2, 8)}`;
      const email = `${username}@example.com`;
      const res = await request('POST', '/api/v4/users', { as, body: { username, email, password: options.password ?? 'password-1' } });
      if (res.statusCode !== 201) throw new Error(`user create failed: ${res.statusCode} ${res.body}`);
      const id = (res.json() as { id: string }).id;
      if (options.roles) {
        const roles = await request('PUT', `/api/v4/users/${id}/roles`, { as, body: { roles: options.roles } });
        if (roles.statusCode !== 200) throw new Error(`roles failed: ${roles.body}`);
      }
      return { id, roles: options.roles ?? 'system_user', username, email };
    },
    patchConfig: async (patch) => {
      const res = await request('PUT', '/api/v4/config/patch', { as: await admin(), body: patch });
      if (res.statusCode !== 200) throw new Error(`config patch failed: ${res.statusCode} ${res.body}`);
    },
    stop: async () => {
      await app.stop();
      await bus.close();
    },
  };
}

/**
 * A started harness, its first user (the admin) and, when given, these ServiceSettings patched in:
 * the arrange of every route suite that acts as an admin.
 */
export async function adminHarness(serviceSettings: Record<string, unknown> = {}): Promise<{ h: HttpHarness; admin: Caller }> {
  const h = await httpHarness();
  const admin = await h.admin();
  if (Object.keys(serviceSettings).length > 0) await h.patchConfig({ ServiceSettings: serviceSettings });
  return { h, admin };
}
