import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BOT_USERNAME, HttpError, bearer, botMissing, fakeId, invalidUrlParam, paging, permissions, sessionExpired, userMissing, usernameMissing } from './fake-mattermost-support';

export { fakeId } from './fake-mattermost-support';

/**
 * A tiny in-memory stand-in for a Mattermost-compatible server: just the routes switchyardctl calls, answering
 * like the reference (mattermost-wire.md §1–§5), error JSON included. It records every request so tests can
 * check paths, bodies and the Authorization header. Test-only; loopback only.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

interface FakeUser {
  id: string;
  username: string;
  email: string;
  password: string;
  roles: string;
  auth_service: string;
  is_bot: boolean;
  delete_at: number;
  create_at: number;
}

interface FakeBot {
  user_id: string;
  username: string;
  display_name?: string;
  description?: string;
  owner_id: string;
  create_at: number;
  update_at: number;
  delete_at: number;
}

interface FakeToken {
  id: string;
  token: string;
  user_id: string;
  description: string;
  is_active: boolean;
}

export interface FakeOptions {
  /** When false, GET /users/email/{email} is an unknown route (404 api.context.404.app_error). */
  readonly emailRoute?: boolean;
  readonly enableBotAccountCreation?: boolean;
}


export class FakeMattermost {
  readonly requests: RecordedRequest[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly bots = new Map<string, FakeBot>();
  readonly tokens = new Map<string, FakeToken>();
  /** session token → user id */
  readonly sessions = new Map<string, string>();
  enableBotAccountCreation: boolean;
  /** When set, every request gets this answer instead (status, raw body, content type). */
  override: { status: number; body: string; contentType: string } | undefined;
  private readonly emailRoute: boolean;
  private server: Server | undefined;
  url = '';

  constructor(options: FakeOptions = {}) {
    this.emailRoute = options.emailRoute ?? true;
    this.enableBotAccountCreation = options.enableBotAccountCreation ?? true;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.send(res, 500, { id: 'fake.internal', message: String(error), detailed_error: '', status_code: 500 });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  addUser(fields: Partial<FakeUser> & { username: string }): FakeUser {
    const user: FakeUser = {
      id: fakeId(),
      email: `${fields.username}@example.com`,
      password: 'Passw0rd!',
      roles: 'system_user',
      auth_service: '',
      is_bot: false,
      delete_at: 0,
      create_at: Date.now(),
      ...fields,
    };
    this.users.set(user.id, user);
    return user;
  }

  addBot(username: string, ownerId: string, fields: Partial<FakeBot> = {}): FakeBot {
    const user = this.addUser({ username, email: `${username}@localhost`, password: '', is_bot: true });
    const bot: FakeBot = { user_id: user.id, username, owner_id: ownerId, create_at: user.create_at, update_at: user.create_at, delete_at: 0, ...fields };
    this.bots.set(bot.user_id, bot);
    return bot;
  }

  /** A personal access token for `userId`, usable as a bearer token. */
  addToken(userId: string, description = 'test'): FakeToken {
    const token: FakeToken = { id: fakeId(), token: fakeId(), user_id: userId, description, is_active: true };
    this.tokens.set(token.id, token);
    return token;
  }

  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = text;
    }
    this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body });

    if (this.override) {
      res.writeHead(this.override.status, { 'Content-Type': this.override.contentType });
      res.end(this.override.body);
      return;
    }
    try {
      const answer = this.route(req.method ?? 'GET', url, req.headers.authorization, body);
      this.send(res, answer.status, answer.body, answer.headers);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.send(res, error.status, { id: error.id, message: error.message, detailed_error: '', request_id: 'req' + fakeId().slice(3), status_code: error.status });
    }
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const requestId = fakeId();
    res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-ID': requestId, ...headers });
    res.end(JSON.stringify(body));
  }

  private route(method: string, url: URL, authorization: string | undefined, body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
    const path = url.pathname;
    const ok = (value: unknown, status = 200) => ({ status, body: value });

    if (method === 'POST' && path === '/api/v4/users/login') {
      const { login_id: loginId, password } = (body ?? {}) as { login_id?: string; password?: string };
      const user = [...this.users.values()].find((u) => u.username === loginId || u.email === loginId);
      if (user?.is_bot) throw new HttpError(401, 'api.user.login.bot_login_forbidden.app_error', 'Bot login is forbidden.');
      if (!user || user.password === '' || user.password !== password) {
        throw new HttpError(401, 'api.user.login.invalid_credentials_email_username', 'Enter a valid email or username and/or password.');
      }
      const token = fakeId();
      this.sessions.set(token, user.id);
      return { status: 200, body: this.publicUser(user), headers: { Token: token } };
    }
    if (method === 'POST' && path === '/api/v4/users/logout') {
      const token = bearer(authorization);
      if (token) this.sessions.delete(token);
      return ok({ status: 'OK' });
    }

    const me = this.authenticate(authorization);
    const isAdmin = me.roles.split(' ').includes('system_admin');
    let m: RegExpMatchArray | null;

    if (method === 'GET' && path === '/api/v4/users/me') return ok(this.publicUser(me));
    if (method === 'GET' && path === '/api/v4/users') {
      const { page, perPage } = paging(url);
      return ok([...this.users.values()].slice(page * perPage, (page + 1) * perPage).map((u) => this.publicUser(u)));
    }
    if (method === 'GET' && (m = path.match(/^\/api\/v4\/users\/username\/([^/]+)$/))) {
      const name = decodeURIComponent(m[1]!);
      const user = [...this.users.values()].find((u) => u.username === name);
      if (!user) throw usernameMissing();
      return ok(this.publicUser(user));
    }
    if (method === 'GET' && this.emailRoute && (m = path.match(/^\/api\/v4\/users\/email\/([^/]+)$/))) {
      const email = decodeURIComponent(m[1]!).toLowerCase();
      const user = [...this.users.values()].find((u) => u.email === email);
      if (!user) throw userMissing();
      return ok(this.publicUser(user));
    }
    if (!this.emailRoute && path.startsWith('/api/v4/users/email/')) {
      throw new HttpError(404, 'api.context.404.app_error', 'Sorry, we could not find the page.');
    }
    if (method === 'POST' && path === '/api/v4/users/tokens/revoke') {
      const tokenId = (body as { token_id?: unknown } | undefined)?.token_id;
      if (typeof tokenId !== 'string' || tokenId === '') throw new HttpError(400, 'api.context.invalid_body_param.app_error', 'Invalid or missing token_id in request body.');
      const token = this.tokens.get(tokenId);
      if (!token) throw new HttpError(404, 'app.user_access_token.get_by_id.app_error', 'Unable to find the personal access token.');
      if (!isAdmin && token.user_id !== me.id) throw permissions();
      this.tokens.delete(tokenId);
      return ok({ status: 'OK' });
    }
    if ((m = path.match(/^\/api\/v4\/users\/([^/]+)(\/.*)?$/))) {
      const id = m[1]!;
      const rest = m[2] ?? '';
      if (!/^[a-z0-9]{26}$/.test(id)) throw invalidUrlParam();
      const user = this.users.get(id);
      if (method === 'GET' && rest === '') {
        if (!user) throw userMissing();
        return ok(this.publicUser(user));
      }
      if (method === 'POST' && rest === '/convert_to_bot') {
        if (!isAdmin) throw permissions();
        if (!user) throw userMissing();
        user.is_bot = true;
        user.password = '';
        const bot: FakeBot = { user_id: user.id, username: user.username, display_name: user.username, owner_id: user.id, create_at: Date.now(), update_at: Date.now(), delete_at: 0 };
        this.bots.set(user.id, bot);
        return ok(bot);
      }
      if (method === 'POST' && rest === '/tokens') {
        const description = (body as { description?: unknown } | undefined)?.description;
        if (typeof description !== 'string' || description === '') throw new HttpError(400, 'api.context.invalid_body_param.app_error', 'Invalid or missing description in request body.');
        if (!isAdmin && id !== me.id) throw permissions();
        if (!user) throw userMissing();
        const token = this.addToken(user.id, description);
        return ok({ ...token });
      }
    }
    if (method === 'GET' && path === '/api/v4/bots') {
      const { page, perPage } = paging(url);
      const includeDeleted = url.searchParams.get('include_deleted') === 'true';
      const bots = [...this.bots.values()].filter((b) => includeDeleted || b.delete_at === 0);
      return ok(bots.slice(page * perPage, (page + 1) * perPage));
    }
    if (method === 'POST' && path === '/api/v4/bots') {
      if (!isAdmin) throw permissions();
      if (!this.enableBotAccountCreation) throw new HttpError(403, 'api.bot.create_disabled', 'Bot creation has been disabled.');
      const patch = (body ?? {}) as { username?: string; display_name?: string; description?: string };
      if (typeof patch.username !== 'string' || !BOT_USERNAME.test(patch.username)) throw new HttpError(400, 'model.bot.is_valid.username.app_error', 'Invalid username.');
      if ([...this.users.values()].some((u) => u.username === patch.username)) throw new HttpError(400, 'app.user.save.username_exists.app_error', 'An account with that username already exists.');
      const bot = this.addBot(patch.username, me.id, { display_name: patch.display_name, description: patch.description });
      return ok(bot, 201);
    }
    if (method === 'POST' && (m = path.match(/^\/api\/v4\/bots\/([^/]+)\/(disable|enable)$/))) {
      if (!/^[a-z0-9]{26}$/.test(m[1]!)) throw invalidUrlParam();
      const bot = this.bots.get(m[1]!);
      if (!bot) throw botMissing();
      if (!isAdmin && bot.owner_id !== me.id) throw permissions();
      bot.delete_at = m[2] === 'disable' ? Date.now() : 0;
      bot.update_at = Date.now();
      this.users.get(bot.user_id)!.delete_at = bot.delete_at;
      return ok(bot);
    }
    throw new HttpError(404, 'api.context.404.app_error', 'Sorry, we could not find the page.');
  }

  private authenticate(authorization: string | undefined): FakeUser {
    const token = bearer(authorization);
    if (!token) throw sessionExpired();
    const sessionUser = this.sessions.get(token);
    const userId = sessionUser ?? [...this.tokens.values()].find((t) => t.token === token && t.is_active)?.user_id;
    const user = userId === undefined ? undefined : this.users.get(userId);
    if (!user || user.delete_at !== 0) throw sessionExpired();
    return user;
  }

  private publicUser(user: FakeUser): Record<string, unknown> {
    const { password: _password, ...rest } = user;
    return { ...rest, is_bot: user.is_bot || undefined };
  }
}
