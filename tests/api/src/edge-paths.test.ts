import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw, rawTarget, type RawResponse } from './support/http';
import { newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/**
 * An attacker with an ordinary account (a session token) or a bot token tries to reach the services'
 * internal routes (/internal/v1/*, which trust service credentials only) through the public port:
 * directly, through dot segments hidden by percent-encoding, and through encoded slashes. The gateway
 * decides on the decoded path: dot and empty segments are the reference's 301 to the cleaned path,
 * encoded separators are 404, and no service ever sees such a request.
 */
describe('paths with dot segments, encoded separators and internal routes (as an attacker)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let member: Actor;
  let bot: Actor;
  let secretChannel: Channel;
  let secretPost: Post;
  let internalRoutes: Array<[method: string, path: string, body?: unknown]>;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    member = await teamMember(target.url, admin, team, 'atk');
    bot = await teamBot(target.url, admin, team);
    secretChannel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team, 'P');
    secretPost = await postIn(admin, secretChannel.id, 'the private plan');
    internalRoutes = [
      ['GET', '/internal/v1/config'],
      ['POST', '/internal/v1/auth/resolve', { token: admin.token }],
      ['POST', '/internal/v1/users/by-ids', { ids: [admin.user.id] }],
      ['POST', '/internal/v1/users/by-usernames', { usernames: [admin.user.username] }],
      ['GET', `/internal/v1/teams/${team.id}/members/${admin.user.id}`],
      ['GET', `/internal/v1/teams/${team.id}`],
      ['GET', `/internal/v1/teams/name/${team.name}`],
      ['GET', `/internal/v1/channels/${secretChannel.id}`],
      ['GET', `/internal/v1/teams/${team.id}/channels/name/${secretChannel.name}`],
      ['POST', '/internal/v1/channels/direct', { user_ids: [admin.user.id, member.id] }],
      ['GET', `/internal/v1/channels/${secretChannel.id}/members/${admin.user.id}`],
      ['GET', `/internal/v1/channels/${secretChannel.id}/member-ids`],
      ['GET', `/internal/v1/posts/${secretPost.id}`],
      ['PUT', `/internal/v1/posts/${secretPost.id}`, { message: 'overwritten by an attacker' }],
    ];
  });
  after(async () => {
    await target?.stop();
  });

  /** Nothing an internal route would answer: no config secrets, no private post, no resolved session. */
  function assertNothingLeaked(response: RawResponse, what: string): void {
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
    assert.ok(!(json && response.status >= 200 && response.status < 300), `${what}: answered ${response.status} ${response.text.slice(0, 200)}`);
    for (const needle of ['whsec_', 'the private plan', 'IntegrationSigningSecret', 'csrfToken', 'SqlSettings']) {
      assert.ok(!response.text.includes(needle), `${what}: answer contains ${needle}`);
    }
  }

  function assertRedirect(response: RawResponse, location: string, what: string): void {
    assert.equal(response.status, 301, `${what}: expected 301, got ${response.status} ${response.text.slice(0, 200)}`);
    assert.equal(response.headers.get('location'), location, what);
    assert.equal(response.text, '', `${what}: empty body`);
    for (const name of ['x-request-id', 'x-version-id', 'x-content-type-options', 'referrer-policy', 'permissions-policy', 'expires']) {
      assert.equal(response.headers.get(name), null, `${what}: the router answers before any handler (${name})`);
    }
  }

  it('when an internal route is called directly on the public port with a session or bot token, then no service answers (404, or the console page for a GET)', async () => {
    for (const [name, token] of [['session', member.token], ['bot', bot.token], ['admin', admin.token]] as const) {
      for (const [method, path, body] of internalRoutes) {
        const res = await raw(target.url, method, path, { token, ...(body === undefined ? {} : { body }) });
        assertNothingLeaked(res, `${name} ${method} ${path}`);
        // Outside /api and /hooks a GET is the web console's (its page, or a plain note when it is not built).
        if (method === 'GET' && /^text\/(html|plain)/.test(res.headers.get('content-type') ?? '')) continue;
        assertAppError(res, 404, 'api.context.404.app_error');
      }
    }
  });

  it('when dot segments are hidden with %2e%2e, .%2e, %2e., %2E%2E or .. under several prefixes and methods, then 301 to the cleaned path and nothing is reached', async () => {
    const dots = ['%2e%2e', '.%2e', '%2e.', '%2E%2E', '..'];
    const prefixes = ['/api/v4/users', '/api/v4/posts', '/api/v4/channels/x', '/api/v4/hooks/incoming', '/hooks', '/api/v4/teams/a/channels'];
    for (const [name, token] of [['session', member.token], ['bot', bot.token]] as const) {
      for (const [method, path, body] of internalRoutes) {
        for (const dot of dots) {
          const prefix = prefixes[(dots.indexOf(dot) + path.length) % prefixes.length] ?? '/api/v4/users';
          const attack = `${prefix}/${`${dot}/`.repeat(8)}${path.slice(1)}`;
          const res = await rawTarget(target.url, method, attack, { token, ...(body === undefined ? {} : { body }) });
          assertNothingLeaked(res, `${name} ${method} ${attack}`);
          assertRedirect(res, path, `${name} ${method} ${attack}`);
        }
      }
      // Every prefix and method at least once, on the two routes that did the damage.
      for (const prefix of prefixes) {
        for (const [method, path, body] of [['GET', '/internal/v1/config'], ['PUT', `/internal/v1/posts/${secretPost.id}`, { message: 'overwritten' }], ['POST', '/internal/v1/users/by-ids', { ids: [admin.user.id] }], ['DELETE', '/internal/v1/config']] as const) {
          const attack = `${prefix}/%2e%2e/.%2E/%2E./..%2f/${path.slice(1)}`;
          const res = await rawTarget(target.url, method, attack, { token, ...(body === undefined ? {} : { body }) });
          assertNothingLeaked(res, `${name} ${method} ${attack}`);
          assertAppError(res, 404, 'api.context.404.app_error');
          const clean = `${prefix}/${'%2e%2e/'.repeat(prefix.split('/').length)}${path.slice(1)}?x=1`;
          const redirected = await rawTarget(target.url, method, clean, { token, ...(body === undefined ? {} : { body }) });
          assertNothingLeaked(redirected, `${name} ${method} ${clean}`);
          assertRedirect(redirected, `${path}?x=1`, `${name} ${method} ${clean}`);
        }
      }
    }
    const post = await admin.client.getPost(secretPost.id);
    assert.equal(post.message, 'the private plan', 'the private post was not overwritten');
    assert.equal(post.edit_at, 0);
  });

  it('when a segment holds an encoded slash or backslash (%2f, %2F, %5c, %5C), then 404 api.context.404.app_error', async () => {
    for (const [name, token] of [['session', member.token], ['bot', bot.token]] as const) {
      for (const attack of [
        '/api/v4/users/me%2f..%2f..%2f..%2finternal%2fv1%2fconfig',
        '/api/v4/users/me%2F%2e%2e%2F%2e%2e%2F%2e%2e%2Finternal%2Fv1%2Fconfig',
        '/api/v4/posts/x%5c..%5c..%5c..%5cinternal%5cv1%5cconfig',
        `/api/v4/posts/${secretPost.id}%5C..%5C..`,
        '/hooks/abc%2f..%2f..%2finternal%2fv1%2fconfig',
        `/api/v4/users/${member.id}%2f`,
      ]) {
        for (const method of ['GET', 'PUT']) {
          const res = await rawTarget(target.url, method, attack, { token, ...(method === 'PUT' ? { body: { message: 'x' } } : {}) });
          assertNothingLeaked(res, `${name} ${method} ${attack}`);
          assertAppError(res, 404, 'api.context.404.app_error');
        }
      }
    }
  });

  it('when a path has empty segments, then 301 to the cleaned path (query kept), and clients that follow it get the answer', async () => {
    const double = `/api/v4/posts/${secretPost.id}//reactions`;
    assertRedirect(await rawTarget(target.url, 'GET', double, { token: admin.token }), `/api/v4/posts/${secretPost.id}/reactions`, double);
    assertRedirect(await rawTarget(target.url, 'GET', '//api/v4/users/me?x=1', { token: member.token }), '/api/v4/users/me?x=1', '//api/v4/users/me');
    assertRedirect(await rawTarget(target.url, 'DELETE', `/api/v4/users/x/../${member.id}`, { token: member.token }), `/api/v4/users/${member.id}`, 'x/..');
    const followed = await raw(target.url, 'GET', double, { token: admin.token });
    assert.equal(followed.status, 200, followed.text);
    assert.deepEqual(followed.json, []);
  });

  it('when an /api/v4 path ends with a slash, then 404 api.context.404.app_error as the reference router (no route is matched loosely)', async () => {
    for (const [method, path] of [['GET', '/api/v4/users/me/'], ['GET', `/api/v4/posts/${secretPost.id}/`], ['PUT', `/api/v4/posts/${secretPost.id}/patch/`]] as const) {
      const res = await rawTarget(target.url, method, path, { token: admin.token, ...(method === 'PUT' ? { body: { message: 'overwritten' } } : {}) });
      assertAppError(res, 404, 'api.context.404.app_error');
    }
    const post = await raw(target.url, 'GET', `/api/v4/posts/${secretPost.id}`, { token: admin.token });
    assert.equal(post.json.message, 'the private plan', 'the trailing-slash PUT changed nothing');
  });

  it('when a clean path is percent-encoded, then it is decoded once and served as the same route', async () => {
    const res = await rawTarget(target.url, 'GET', '/api/v4/us%65rs/%6De', { token: member.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.id, member.id);
    const literal = await rawTarget(target.url, 'GET', '/api/v4/users/%252e%252e', { token: member.token });
    assert.ok(literal.status === 400 || literal.status === 404, `a double-encoded name is a literal id: ${literal.status}`);
    assertNothingLeaked(literal, 'double-encoded');
  });
});
