import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bot } from '@mattermost/types/bots';
import type { Team } from '@mattermost/types/teams';
import type { UserAccessToken } from '@mattermost/types/users';
import {
  createBot,
  createTeam,
  createUserSession,
  ensureAdmin,
  listAllUsers,
  patchConfig,
  PASSWORD,
  suffix,
  type AdminSession,
  type NewUser,
  type Session,
} from './support/fixtures';
import { assertAppError, raw } from './support/http';
import { startTarget, type Target } from './support/target';

/**
 * Hostile and broken bodies on every POST/PUT of the users-bots area: malformed JSON, wrong types,
 * query-operator objects where strings belong, `__proto__` / `constructor.prototype` keys and oversized
 * bodies. Each must answer 400 (413 for size; login: the reference's answer to a map of strings) with an error id, never 500, and store nothing.
 */

const RUN = suffix(5);
let counter = 0;
/** A username this file never stores on purpose: any user or bot with this prefix means a bad body was stored. */
const badName = (): string => `bad${RUN}${counter++}`;
const OP = { $gt: '' };

interface Fixture {
  readonly admin: AdminSession;
  readonly user: Session & NewUser;
  readonly pat: UserAccessToken;
  readonly bot: Bot;
  readonly team: Team;
}

interface Route {
  readonly method: 'POST' | 'PUT';
  readonly path: (f: Fixture) => string;
  /** Bodies with a wrong JSON type somewhere. */
  readonly wrongTypes: (f: Fixture) => unknown[];
  /** Bodies with `{"$gt": ""}`-style objects where strings (or ids) belong. */
  readonly operators: (f: Fixture) => unknown[];
  /** Raw JSON texts carrying `__proto__` or `constructor.prototype` keys. */
  readonly prototypes: (f: Fixture) => string[];
  /** What must not change; compared before and after every bad request. */
  readonly snapshot: (f: Fixture) => Promise<unknown>;
  /** Sent unauthenticated (login). */
  readonly anonymous?: boolean;
  /** The answer to a wrong-type or operator body when it is not 400 invalid_body_param. */
  readonly typeAnswer?: (body: unknown) => readonly [number, string];
}

const INVALID_BODY = [400, 'api.context.invalid_body_param.app_error'] as const;

const userBody = (extra: Record<string, unknown> = {}) => ({ username: badName(), email: `${badName()}@example.com`, password: PASSWORD, ...extra });
const proto = (fields: Record<string, unknown>, key = '__proto__'): string => {
  const text = JSON.stringify(fields);
  const polluted = key === '__proto__' ? '"__proto__":{"roles":"system_admin","polluted":"yes"}' : '"constructor":{"prototype":{"polluted":"yes"}}';
  return text === '{}' ? `{${polluted}}` : `${text.slice(0, -1)},${polluted}}`;
};
const both = (fields: Record<string, unknown>): string[] => [proto(fields), proto(fields, 'constructor')];

let targetUrl = '';
/** Users (bots included) whose username carries this file's bad-name prefix, i.e. stored from a bad body. */
async function badUsers(f: Fixture): Promise<string[]> {
  const users = await listAllUsers(targetUrl, f.admin.token);
  return users.map((u) => u.username).filter((name) => name.startsWith(`bad${RUN}`)).sort();
}
const getJson = async (f: Fixture, path: string): Promise<unknown> => {
  const response = await raw(targetUrl, 'GET', path, { token: f.admin.token });
  return { status: response.status, body: response.json };
};
const withoutTimes = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'update_at' || k === 'last_activity_at' ? undefined : v)));

const routes: Record<string, Route> = {
  'POST /users': {
    method: 'POST',
    path: () => '/api/v4/users',
    wrongTypes: () => [userBody({ username: 12345 }), userBody({ email: ['a@example.com'] }), userBody({ password: 12345678 }), [userBody()], 'just a string'],
    operators: () => [userBody({ username: OP }), userBody({ email: OP }), userBody({ password: OP })],
    prototypes: () => both(userBody()),
    snapshot: badUsers,
  },
  'POST /users/login': {
    method: 'POST',
    path: () => '/api/v4/users/login',
    anonymous: true,
    wrongTypes: (f) => [{ login_id: 123, password: PASSWORD }, { login_id: [f.user.username], password: PASSWORD }, { login_id: f.user.username, password: true }],
    operators: (f) => [{ login_id: f.user.username, password: OP }, { login_id: OP, password: OP }, { login_id: { $ne: null }, password: { $ne: null } }],
    prototypes: (f) => both({ login_id: f.user.username, password: 'wrong-password' }),
    snapshot: async () => null,
    // The reference reads the login body as a map of strings (MapFromJSON): a field of another type is
    // absent, so a password that is not a string is blank (400) and a login id that is not one finds nobody.
    typeAnswer: (body) =>
      typeof (body as { password?: unknown }).password === 'string'
        ? [401, 'api.user.login.invalid_credentials_email_username']
        : [400, 'api.user.login.blank_pwd.app_error'],
  },
  'POST /users/ids': {
    method: 'POST',
    path: () => '/api/v4/users/ids',
    wrongTypes: () => [{ ids: [] }, [123, 456], 'abc', [null]],
    operators: () => [[OP], { $in: ['x'] }],
    prototypes: () => ['[{"__proto__":{"polluted":"yes"}}]', '{"__proto__":[]}'],
    snapshot: async () => null,
  },
  'POST /users/usernames': {
    method: 'POST',
    path: () => '/api/v4/users/usernames',
    wrongTypes: () => [{ usernames: [] }, [1, 2], true],
    operators: () => [[OP], { $regex: '.*' }],
    prototypes: () => ['[{"__proto__":{"polluted":"yes"}}]', '{"__proto__":["sysadmin"]}'],
    snapshot: async () => null,
  },
  'PUT /users/{id}/active': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}/active`,
    wrongTypes: () => [{ active: 'false' }, { active: 0 }, { active: null }, [false]],
    operators: () => [{ active: OP }],
    prototypes: () => both({ active: 'no' }),
    snapshot: async (f) => ((await getJson(f, `/api/v4/users/${f.user.user.id}`)) as { body: { delete_at: number } }).body.delete_at,
  },
  'PUT /users/{id}/roles': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}/roles`,
    wrongTypes: () => [{ roles: 5 }, { roles: ['system_admin'] }, { roles: true }],
    operators: () => [{ roles: OP }, { roles: { $set: 'system_admin' } }],
    prototypes: () => both({ roles: 5 }),
    snapshot: async (f) => ((await getJson(f, `/api/v4/users/${f.user.user.id}`)) as { body: { roles: string } }).body.roles,
  },
  'POST /users/{id}/tokens': {
    method: 'POST',
    path: (f) => `/api/v4/users/${f.user.user.id}/tokens`,
    wrongTypes: () => [{ description: 5 }, { description: ['x'] }, { description: 'ok', expires_at: 'never' }],
    operators: () => [{ description: OP }],
    prototypes: () => both({ description: 42 }),
    snapshot: (f) => getJson(f, `/api/v4/users/${f.user.user.id}/tokens`),
  },
  'POST /users/tokens/revoke': {
    method: 'POST',
    path: () => '/api/v4/users/tokens/revoke',
    wrongTypes: () => [{ token_id: 5 }, { token_id: [] }, {}],
    operators: () => [{ token_id: OP }, { token_id: { $ne: 'x' } }],
    prototypes: () => both({ token_id: 7 }),
    snapshot: (f) => patSnapshot(f),
  },
  'POST /users/tokens/disable': {
    method: 'POST',
    path: () => '/api/v4/users/tokens/disable',
    wrongTypes: () => [{ token_id: true }, { token_id: null }],
    operators: () => [{ token_id: OP }, { token_id: { $exists: true } }],
    prototypes: () => both({ token_id: 7 }),
    snapshot: (f) => patSnapshot(f),
  },
  'POST /users/tokens/enable': {
    method: 'POST',
    path: () => '/api/v4/users/tokens/enable',
    wrongTypes: () => [{ token_id: 1 }],
    operators: () => [{ token_id: OP }],
    prototypes: () => both({ token_id: 7 }),
    snapshot: (f) => patSnapshot(f),
  },
  'POST /bots': {
    method: 'POST',
    path: () => '/api/v4/bots',
    wrongTypes: () => [{ username: 123 }, { username: badName(), display_name: 5 }, { username: badName(), description: ['x'] }, [{ username: badName() }]],
    operators: () => [{ username: OP }, { username: badName(), display_name: OP }],
    prototypes: () => both({ username: 7 }),
    snapshot: badUsers,
  },
  'PUT /bots/{id}': {
    method: 'PUT',
    path: (f) => `/api/v4/bots/${f.bot.user_id}`,
    wrongTypes: () => [{ display_name: 5 }, { description: true }, { username: ['x'] }],
    operators: () => [{ username: OP }, { display_name: OP }],
    prototypes: () => both({ display_name: 5 }),
    snapshot: async (f) => withoutTimes(await getJson(f, `/api/v4/bots/${f.bot.user_id}`)),
  },
  'POST /bots/{id}/convert_to_user': {
    method: 'POST',
    path: (f) => `/api/v4/bots/${f.bot.user_id}/convert_to_user`,
    wrongTypes: () => [{ password: 12345678 }, { password: ['x'] }],
    operators: () => [{ password: OP }],
    prototypes: () => both({ password: 5 }),
    snapshot: async (f) => withoutTimes(await getJson(f, `/api/v4/users/${f.bot.user_id}`)),
  },
  'PUT /users/{id}/patch': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}/patch`,
    wrongTypes: () => [{ nickname: 5 }, { notify_props: { channel: true } }, { notify_props: 'all' }, { timezone: ['x'] }, [{ nickname: 'x' }]],
    operators: () => [{ nickname: OP }, { notify_props: { mention_keys: OP } }, { username: { $ne: null } }],
    prototypes: () => both({ nickname: 5 }),
    snapshot: async (f) => withoutTimes(await getJson(f, `/api/v4/users/${f.user.user.id}`)),
  },
  'PUT /users/{id}': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}`,
    wrongTypes: (f) => [{ id: f.user.user.id, nickname: 5 }, { id: f.user.user.id, roles: 7 }, { id: f.user.user.id, notify_props: { channel: true } }, { id: f.user.user.id, delete_at: 'now' }, [f.user.user.id]],
    operators: (f) => [{ id: f.user.user.id, username: OP }, { id: OP }],
    prototypes: (f) => both({ id: f.user.user.id, nickname: 5 }),
    snapshot: async (f) => withoutTimes(await getJson(f, `/api/v4/users/${f.user.user.id}`)),
  },
  'POST /teams': {
    method: 'POST',
    path: () => '/api/v4/teams',
    wrongTypes: () => [{ name: 123, display_name: 'x', type: 'O' }, { name: badName(), display_name: ['x'], type: 'O' }, { name: badName(), display_name: 'x', type: 5 }],
    operators: () => [{ name: OP, display_name: 'x', type: 'O' }, { name: badName(), display_name: 'x', type: OP }],
    prototypes: () => both({ name: 5, display_name: 'x', type: 'O' }),
    snapshot: (f) => getJson(f, '/api/v4/users/me/teams'),
  },
  'POST /teams/{id}/members': {
    method: 'POST',
    path: (f) => `/api/v4/teams/${f.team.id}/members`,
    wrongTypes: (f) => [{ team_id: f.team.id, user_id: 5 }, { team_id: f.team.id, user_id: [f.user.user.id] }],
    operators: (f) => [{ team_id: f.team.id, user_id: OP }, { team_id: OP, user_id: f.user.user.id }],
    prototypes: (f) => both({ team_id: f.team.id, user_id: 5 }),
    snapshot: (f) => getJson(f, `/api/v4/users?in_team=${f.team.id}&per_page=200`),
  },
  'PUT /config/patch': {
    method: 'PUT',
    path: () => '/api/v4/config/patch',
    wrongTypes: () => [{ ServiceSettings: { EnableBotAccountCreation: 'yes' } }, { ServiceSettings: { MaximumPayloadSizeBytes: '1000' } }, { ServiceSettings: 'all' }, [1]],
    operators: () => [{ ServiceSettings: { SiteURL: OP } }, { RateLimitSettings: { VaryByHeader: OP } }],
    prototypes: () => [
      '{"ServiceSettings":{"__proto__":{"polluted":"yes"}}}',
      '{"__proto__":{"ServiceSettings":{"EnableDeveloper":true}}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
    ],
    snapshot: (f) => getJson(f, '/api/v4/config'),
  },
  'PUT /config': {
    method: 'PUT',
    path: () => '/api/v4/config',
    wrongTypes: () => [{ ServiceSettings: { EnableBotAccountCreation: 'yes' } }, [1, 2], 'config'],
    operators: () => [{ ServiceSettings: { SiteURL: OP } }],
    prototypes: () => ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
    snapshot: (f) => getJson(f, '/api/v4/config'),
  },
};

async function patSnapshot(f: Fixture): Promise<unknown> {
  const token = await getJson(f, `/api/v4/users/tokens/${f.pat.id}`);
  const me = await raw(targetUrl, 'GET', '/api/v4/users/me', { token: f.pat.token });
  return { token, works: me.status };
}

describe('bad input on every POST and PUT', { timeout: 300_000 }, () => {
  let target: Target;
  let fixture: Fixture;
  let usersAtStart = 0;

  before(async () => {
    target = await startTarget();
    targetUrl = target.url;
    const admin = await ensureAdmin(target.url);
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true, EnableUserAccessTokens: true } });
    const user = await createUserSession(target.url, admin.client, 'victim');
    const pat = await admin.client.createUserAccessToken(user.user.id, 'victim token');
    const bot = await createBot(admin.client, 'victimbot');
    const team = await createTeam(admin.client, 'victim');
    fixture = { admin, user, pat, bot, team };
    usersAtStart = (await listAllUsers(target.url, admin.token)).length;
  });
  after(async () => {
    await target?.stop();
  });

  async function expectRejected(route: Route, rawBody: string, status: number, id: string | RegExp): Promise<void> {
    const before = await route.snapshot(fixture);
    const response = await raw(target.url, route.method, route.path(fixture), { token: route.anonymous ? undefined : fixture.admin.token, rawBody });
    assert.ok(response.status < 500, `never 5xx: got ${response.status} ${response.text.slice(0, 300)} for ${rawBody.slice(0, 120)}`);
    assertAppError(response, status, id);
    assert.equal(response.headers.get('token'), null, 'no session is issued');
    assert.deepEqual(await route.snapshot(fixture), before, `nothing changed after ${rawBody.slice(0, 120)}`);
  }

  for (const [name, route] of Object.entries(routes)) {
    describe(name, () => {
      it(`when ${name} gets malformed JSON, then 400 api.context.invalid_body_param.app_error`, async () => {
        for (const text of ['{"a":', '{username: "x"}', "{'a':1}", '{"a":1}}', '\u0000']) {
          await expectRejected(route, text, 400, 'api.context.invalid_body_param.app_error');
        }
      });

      it(`when ${name} gets wrong JSON types, then 400 (or the reference's answer) with an error id and nothing is stored`, async () => {
        for (const body of route.wrongTypes(fixture)) await expectRejected(route, JSON.stringify(body), ...(route.typeAnswer?.(body) ?? INVALID_BODY));
      });

      it(`when ${name} gets operator objects where strings belong, then 400 (or the reference's answer) and nothing is stored`, async () => {
        for (const body of route.operators(fixture)) await expectRejected(route, JSON.stringify(body), ...(route.typeAnswer?.(body) ?? INVALID_BODY));
      });

      it(`when ${name} gets __proto__ or constructor.prototype keys, then 400 and nothing is stored`, async () => {
        for (const text of route.prototypes(fixture)) await expectRejected(route, text, 400, 'api.context.invalid_body_param.app_error');
        assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined, 'Object.prototype is clean');
        assert.equal((Object.prototype as Record<string, unknown>).roles, undefined, 'Object.prototype is clean');
      });

      it(`when ${name} gets a body over MaximumPayloadSizeBytes, then 413 api.context.request_body_too_large.app_error`, async () => {
        await expectRejected(route, `{"pad":"${'x'.repeat(300_001)}"}`, 413, 'api.context.request_body_too_large.app_error');
      });
    });
  }

  it('when all the bad bodies were sent, then no user was added, the victim is unchanged and the PAT still works', async (t) => {
    const me = await raw(target.url, 'GET', '/api/v4/users/me', { token: fixture.pat.token });
    assert.equal(me.status, 200);
    assert.equal(me.json.roles, 'system_user');
    assert.equal(me.json.delete_at, 0);
    assert.deepEqual(await badUsers(fixture), []);
    if (!target.isolated) return t.skip('shared target: the total user count is not ours');
    assert.equal((await listAllUsers(target.url, fixture.admin.token)).length, usersAtStart);
  });
});
