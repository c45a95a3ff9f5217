import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCtl } from './test-support/run-ctl';

/**
 * The CLI against the real product: the embedded runtime on an ephemeral loopback port. Never skipped: if
 * `@switchyard/embedded` or a service it composes cannot be loaded, this file fails (a broken dependency
 * must fail CI, not hide the suite).
 */

interface EmbeddedModule {
  startEmbedded(options: { port: number; host?: string; logLevel?: string }): Promise<{ url: string; stop(): Promise<void> }>;
}

// Loaded at run time (the CLI package does not depend on the runtime it is tested against).
const embedded = createRequire(__filename)('@switchyard/embedded') as EmbeddedModule;
const ADMIN_PASSWORD = 'Adm1n-e2e-Passw0rd';
const USER_PASSWORD = 'Us3r-e2e-Passw0rd';

describe('switchyardctl against the embedded runtime', () => {
  let server: { url: string; stop(): Promise<void> };
  let adminToken: string;
  const users = new Map<string, string>();

  const api = async (method: string, path: string, body?: unknown, token: string | undefined = adminToken) => {
    const response = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };
  /** The CLI signed in as the admin with --login (password from the environment, never on the command line). */
  const ctl = (args: string[]) => runCtl(['--url', server.url, '--login', 'admin', ...args], { SWITCHYARD_PASSWORD: ADMIN_PASSWORD });
  const ctlJson = async <T>(args: string[]): Promise<T> => {
    const result = await ctl(['--json', ...args]);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    const started = await embedded.startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error' });
    server = { url: started.url.replace('://0.0.0.0:', '://127.0.0.1:').replace(/\/+$/, ''), stop: () => started.stop() };

    const first = await api('POST', '/users', { username: 'admin', email: 'admin@example.com', password: ADMIN_PASSWORD }, undefined);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const login = await api('POST', '/users/login', { login_id: 'admin', password: ADMIN_PASSWORD }, undefined);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    adminToken = login.headers.get('token') ?? '';
    const patched = await api('PUT', '/config/patch', { ServiceSettings: { EnableBotAccountCreation: true } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    for (const username of ['carol', 'dave']) {
      const created = await api('POST', '/users', { username, email: `${username}@example.com`, password: USER_PASSWORD });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      users.set(username, String(created.body.id));
    }
  });
  after(async () => {
    await server?.stop();
  });

  let botId = '';

  test('when a bot is created, then it is listed', async () => {
    const bot = await ctlJson<{ user_id: string; username: string; display_name: string }>(['bot', 'create', 'e2e-bot', '--display-name', 'E2E Bot', '--description', 'made by the CLI']);
    botId = bot.user_id;
    assert.equal(bot.username, 'e2e-bot');
    assert.equal(bot.display_name, 'E2E Bot');

    const listed = await ctl(['bot', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^e2e-bot +${botId} +E2E Bot .*active$`, 'm'));
  });

  test('when the bot is disabled and enabled, then its state follows and list honours --include-deleted', async () => {
    const disabled = await ctlJson<{ delete_at: number }>(['bot', 'disable', 'e2e-bot']);
    assert.ok(disabled.delete_at > 0);
    const active = await ctlJson<Array<{ user_id: string }>>(['bot', 'list']);
    assert.ok(!active.some((b) => b.user_id === botId));
    const all = await ctlJson<Array<{ user_id: string }>>(['bot', 'list', '--include-deleted']);
    assert.ok(all.some((b) => b.user_id === botId));

    const enabled = await ctlJson<{ delete_at: number }>(['bot', 'enable', botId]);
    assert.equal(enabled.delete_at, 0);
  });

  test('when a token is created for the bot, then it authenticates until it is revoked', async () => {
    const created = await ctl(['token', 'create', 'e2e-bot', '--description', 'e2e']);
    assert.equal(created.code, 0, created.stderr);
    const tokenId = /token id: +([a-z0-9]{26})$/m.exec(created.stdout)?.[1];
    const secret = /^ +token: +([a-z0-9]{26})$/m.exec(created.stdout)?.[1];
    assert.ok(tokenId && secret, created.stdout);

    const me = await api('GET', '/users/me', undefined, secret);
    assert.equal(me.status, 200);
    assert.equal(me.body.username, 'e2e-bot');

    const revoked = await ctl(['token', 'revoke', tokenId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    // The gateway drops its cached session when the revocation event reaches it (asynchronously): poll.
    let after = await api('GET', '/users/me', undefined, secret);
    for (const deadline = Date.now() + 10_000; after.status !== 401 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await api('GET', '/users/me', undefined, secret);
    }
    assert.equal(after.status, 401);
    assert.equal(after.body.id, 'api.context.session_expired.app_error');
  });

  test('when a user is converted by username, then a bot with the same id exists and password sign-in is gone', async () => {
    const bot = await ctlJson<{ user_id: string; username: string }>(['user', 'convert', 'carol', '--bot']);
    assert.deepEqual([bot.user_id, bot.username], [users.get('carol'), 'carol']);

    const login = await api('POST', '/users/login', { login_id: 'carol', password: USER_PASSWORD }, undefined);
    assert.equal(login.status, 401);
    assert.equal(login.body.id, 'api.user.login.bot_login_forbidden.app_error');
    const bots = await ctlJson<Array<{ user_id: string }>>(['bot', 'list']);
    assert.ok(bots.some((b) => b.user_id === users.get('carol')));
  });

  test('when a user is converted by e-mail, then the right user becomes a bot', async () => {
    const bot = await ctlJson<{ user_id: string; username: string }>(['user', 'convert', 'dave@example.com', '--bot']);
    assert.deepEqual([bot.user_id, bot.username], [users.get('dave'), 'dave']);
  });

  test('when the server refuses, then the exit code is 1 and the error id is printed', async () => {
    const invalid = await ctl(['bot', 'create', 'Not Valid']);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^error: model\.bot\.is_valid\.username\.app_error: /m);

    const missing = await ctl(['bot', 'disable', 'no-such-bot']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: app\.user\.get_by_username\.app_error: /m);

    const badToken = await runCtl(['--url', server.url, '--token', 'x'.repeat(26), 'bot', 'list']);
    assert.equal(badToken.code, 1);
    assert.match(badToken.stderr, /^error: api\.context\.session_expired\.app_error: /m);

    const badLogin = await runCtl(['--url', server.url, '--login', 'admin', 'bot', 'list'], { SWITCHYARD_PASSWORD: 'wrong-password' });
    assert.equal(badLogin.code, 1);
    assert.match(badLogin.stderr, /^error: api\.user\.login\.invalid_credentials/m);
    assert.ok(!badLogin.stderr.includes('wrong-password'));
  });
});
