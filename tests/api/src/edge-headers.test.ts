import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectClientError, newClient } from './support/client';
import { createUserSession, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw, type RawResponse } from './support/http';
import type { Target } from './support/target';

const REQUEST_ID = /^[a-z0-9]{26}$/;

describe('headers, error bodies and unknown routes', { timeout: 120_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  /** A mix of successes and failures, JSON all of them. */
  async function sample(): Promise<Array<[string, RawResponse]>> {
    return [
      ['GET /system/ping', await raw(target.url, 'GET', '/api/v4/system/ping')],
      ['GET /users/me', await raw(target.url, 'GET', '/api/v4/users/me', { token: admin.token })],
      ['POST /users/ids', await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, body: [admin.user.id] })],
      ['GET /users/me without session', await raw(target.url, 'GET', '/api/v4/users/me')],
      ['GET unknown route', await raw(target.url, 'GET', '/api/v4/no/such/route', { token: admin.token })],
      ['POST /users/ids malformed', await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, rawBody: '[' })],
      ['GET /config as non-admin', await raw(target.url, 'GET', '/api/v4/config', { token: (await createUserSession(target.url, admin.client, 'hdr')).token })],
    ];
  }

  it('when any API request is answered, then X-Request-ID is a 26-character id, unique per request', async () => {
    const seen = new Set<string>();
    for (const [name, response] of await sample()) {
      const id = response.headers.get('x-request-id') ?? '';
      assert.match(id, REQUEST_ID, name);
      assert.ok(!seen.has(id), `${name}: request ids are unique`);
      seen.add(id);
    }
  });

  it('when an error is answered, then its request_id equals the X-Request-ID header', async () => {
    for (const [name, response] of await sample()) {
      if (response.status < 400) continue;
      assert.equal(response.json?.request_id, response.headers.get('x-request-id'), name);
    }
  });

  it('when any API request is answered, then X-Version-Id is present', async () => {
    for (const [name, response] of await sample()) {
      assert.ok((response.headers.get('x-version-id') ?? '') !== '', `${name}: X-Version-Id`);
    }
    const client = newClient(target.url, admin.token);
    await client.getMe();
    assert.notEqual(client.getServerVersion(), '', 'the official client picked up X-Version-Id');
  });

  it('when a JSON answer or an error is sent, then Content-Type is exactly application/json (no charset)', async () => {
    for (const [name, response] of await sample()) {
      assert.equal(response.headers.get('content-type'), 'application/json', name);
    }
  });

  it('when any API request is answered, then X-Content-Type-Options is nosniff', async () => {
    for (const [name, response] of await sample()) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', name);
    }
  });

  it('when any API request is answered, then Referrer-Policy is no-referrer; GET answers carry Expires: 0', async () => {
    for (const [name, response] of await sample()) {
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', name);
      if (name.startsWith('GET')) assert.equal(response.headers.get('expires'), '0', name);
    }
  });

  it('when a JSON body comes as text/plain or without Content-Type (as the official client sends it), then it is still read as JSON', async () => {
    for (const contentType of ['text/plain;charset=UTF-8', '']) {
      const response = await fetch(`${target.url}/api/v4/users/ids`, {
        method: 'POST',
        headers: contentType === '' ? { Authorization: `Bearer ${admin.token}` } : { Authorization: `Bearer ${admin.token}`, 'Content-Type': contentType },
        body: contentType === '' ? new TextEncoder().encode(JSON.stringify([admin.user.id])) : JSON.stringify([admin.user.id]),
      });
      assert.equal(response.status, 200, `Content-Type '${contentType}'`);
      const users = (await response.json()) as Array<{ id: string }>;
      assert.equal(users[0]?.id, admin.user.id);
    }
  });

  it('when an error is answered, then the body has id, message, detailed_error, request_id and status_code', async () => {
    const response = await raw(target.url, 'GET', '/api/v4/users/me');
    assertAppError(response, 401, 'api.context.session_expired.app_error');
    assert.deepEqual(Object.keys(response.json).filter((k) => !['id', 'message', 'detailed_error', 'request_id', 'status_code', 'is_oauth'].includes(k)), []);
  });

  it('when an unknown /api/v4 route is called, then 404 api.context.404.app_error, even without a session', async () => {
    for (const [method, path] of [
      ['GET', '/api/v4/no/such/route'],
      ['POST', '/api/v4/nothing_here'],
      ['DELETE', '/api/v4/users/me/no/such/thing'],
      ['GET', '/api/v4/'],
    ] as const) {
      const withSession = await raw(target.url, method, path, { token: admin.token });
      assertAppError(withSession, 404, 'api.context.404.app_error');
      assert.match(String(withSession.json.detailed_error), /There doesn't appear to be an api call for the url/);
      const anonymous = await raw(target.url, method, path);
      assertAppError(anonymous, 404, 'api.context.404.app_error');
    }
  });

  it('when the official client calls a route Switchyard does not serve, then it reports 404 api.context.404.app_error', async () => {
    const client = newClient(target.url, admin.token);
    await expectClientError(client.getPluginStatuses(), 404, 'api.context.404.app_error');
  });

  it('when a successful JSON answer is read by the official client, then it is parsed as JSON', async () => {
    const client = newClient(target.url, admin.token);
    const me = await client.getMe();
    assert.equal(typeof me, 'object', 'the client parsed JSON (Content-Type matched exactly)');
    assert.equal(me.id, admin.user.id);
    assertJson(await raw(target.url, 'GET', '/api/v4/users/me', { token: admin.token }), 200);
  });
});
