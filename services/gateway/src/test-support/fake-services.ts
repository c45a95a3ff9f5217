import express, { type Express, type Request, type Response } from 'express';
import { InternalPaths, type ResolvedSession } from '@switchyard/contracts';
import { verifyIdentity } from '@switchyard/http-kit';
import { defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';
import { serviceOnly } from '@switchyard/http-kit';

export const SECRET = 'test-internal-secret-0123456789';

export interface Echo {
  service: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  identity: { userId: string; sessionId: string; roles: string; isBot: boolean; sessionType: string; tokenId?: string } | null;
}

function readBody(req: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: Response, status: number, body: unknown): void {
  res.status(status).setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

/**
 * A fake service: `/health/ready` (200 unless `ready` is false), `/…/fail` answers a 400 error body,
 * `/…/cookie` sets a cookie and a custom header, everything else echoes what it received, including the
 * identity it could verify.
 */
export function fakeService(service: string, state: { ready: boolean } = { ready: true }): Express {
  const app = express();
  app.get('/health/ready', (_req, res) => json(res, state.ready ? 200 : 503, { status: state.ready ? 'OK' : 'UNHEALTHY' }));
  app.use(async (req, res) => {
    const body = await readBody(req);
    if (req.path.endsWith('/fail')) {
      json(res, 400, { id: 'x.fail.app_error', message: 'failed', detailed_error: '', request_id: req.headers['x-request-id'], status_code: 400 });
      return;
    }
    if (req.path.endsWith('/nocontent')) {
      res.status(204).end();
      return;
    }
    // `.../affects/<userId>`: answers as users-bots does after changing that user's sessions.
    const affects = /\/affects\/([^/]+)$/.exec(req.path);
    if (affects?.[1]) res.setHeader('X-Switchyard-Affected-Users', affects[1]);
    if (req.path.endsWith('/cookie')) {
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('X-Custom', 'yes');
      res.setHeader('Connection', 'close');
    }
    const echo: Echo = {
      service,
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body,
      identity: verifyIdentity({ method: req.method, target: req.originalUrl, headers: req.headers }, SECRET) ?? null,
    };
    json(res, req.path.endsWith('/created') ? 201 : 200, echo);
  });
  return app;
}

export interface FakeUsersBots {
  readonly app: Express;
  /** token → session */
  readonly sessions: Map<string, ResolvedSession>;
  resolveCalls: number;
  configCalls: number;
  /** Config requests answered 503 before one succeeds. */
  failConfigTimes: number;
  /** While set, config answers wait for it, then send the document as it was when the request came in. */
  holdConfig: Promise<void> | undefined;
  /** Resolve answers 503 (users-bots in trouble). */
  resolveDown: boolean;
  config: SystemConfig;
  readonly state: { ready: boolean };
}

/** users-bots as the gateway sees it: the internal resolve and config endpoints, plus an echoing public side. */
export function fakeUsersBots(): FakeUsersBots {
  const state = { ready: true };
  const fake: FakeUsersBots = {
    app: express(),
    sessions: new Map(),
    resolveCalls: 0,
    configCalls: 0,
    failConfigTimes: 0,
    holdConfig: undefined,
    resolveDown: false,
    config: defaultSystemConfig(),
    state,
  };
  // users-bots takes internal calls only from a service credential (the gateway's, here).
  const onlyGateway = serviceOnly(SECRET, ['gateway']);
  fake.app.use('/internal', (req, res, next) => {
    onlyGateway(req, res, (error?: unknown) => {
      if (error === undefined) next();
      else json(res, 401, { id: 'api.context.session_expired.app_error', message: 'internal call without credentials', detailed_error: '', request_id: '', status_code: 401 });
    });
  });
  fake.app.post(InternalPaths.resolveToken, async (req, res) => {
    fake.resolveCalls += 1;
    const { token } = JSON.parse(await readBody(req)) as { token: string };
    if (fake.resolveDown) {
      json(res, 503, { id: 'api.context.server_busy.app_error', message: 'busy', detailed_error: '', request_id: '', status_code: 503 });
      return;
    }
    const session = fake.sessions.get(token);
    if (!session) {
      json(res, 401, { id: 'api.context.session_expired.app_error', message: 'Invalid or expired session, please login again.', detailed_error: '', request_id: '', status_code: 401 });
      return;
    }
    json(res, 200, session);
  });
  fake.app.get(InternalPaths.config, async (_req, res) => {
    fake.configCalls += 1;
    if (fake.failConfigTimes > 0) {
      fake.failConfigTimes -= 1;
      json(res, 503, { id: 'api.context.server_busy.app_error', message: 'busy', detailed_error: '', request_id: '', status_code: 503 });
      return;
    }
    const document = fake.config;
    if (fake.holdConfig) await fake.holdConfig;
    json(res, 200, document);
  });
  fake.app.use(fakeService('users-bots', state));
  return fake;
}

let counter = 0;

/** A session for a fresh user; its token is 26 chars like the reference's. */
export function session(overrides: Partial<ResolvedSession> = {}): { token: string; session: ResolvedSession } {
  counter += 1;
  const n = String(counter).padStart(4, '0');
  return {
    token: `tok${n}${'x'.repeat(19)}`,
    session: {
      userId: `user${n}${'u'.repeat(18)}`,
      sessionId: `sess${n}${'s'.repeat(18)}`,
      roles: 'system_user',
      isBot: false,
      sessionType: 'session',
      csrfToken: `csrf${n}`,
      expiresAt: 0,
      ...overrides,
    },
  };
}
