import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryEventBus } from '@switchyard/event-bus';
import { listen } from '@switchyard/http-kit';
import { createApp } from '../../app';
import { fastHasher, silentLogger } from '../../test-support/domain-harness';
import { httpHarness, identityHeaders, SECRET, type Caller, type HttpHarness } from '../../test-support/http-harness';
import { AFFECTED_USERS_HEADER } from './affected-users';

describe('affected-users response header (for the gateway token cache)', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  it('when a request deactivates a user, then the answer names that user for the gateway', async () => {
    const u = await h.user();
    const res = await h.request('PUT', `/api/v4/users/${u.id}/active`, { as: admin, body: { active: false } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers[AFFECTED_USERS_HEADER], u.id);
  });

  it('when two requests change two users at once, then each answer names only its own user', async () => {
    const [u1, u2] = [await h.user(), await h.user()];
    const [r1, r2] = await Promise.all([
      h.request('PUT', `/api/v4/users/${u1.id}/roles`, { as: admin, body: { roles: 'system_user system_admin' } }),
      h.request('PUT', `/api/v4/users/${u2.id}/active`, { as: admin, body: { active: false } }),
    ]);
    assert.equal(r1.statusCode, 200);
    assert.equal(r2.statusCode, 200);
    assert.equal(r1.headers[AFFECTED_USERS_HEADER], u1.id);
    assert.equal(r2.headers[AFFECTED_USERS_HEADER], u2.id);
  });

  it('when a request changes no session, then the answer names nobody', async () => {
    const u = await h.user();
    const res = await h.request('GET', `/api/v4/users/${u.id}`, { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers[AFFECTED_USERS_HEADER], undefined);
  });
});

it('when the deactivation comes over a real socket (body read from the stream), then the answer still names the user', async () => {
  const bus = new MemoryEventBus();
  const app = createApp({ PORT: 0, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', LOG_FORMAT: 'json' }, { logger: silentLogger, bus, passwordHasher: fastHasher });
  await app.start();
  const server = await listen(app.handler, 0, '127.0.0.1');
  const send = async (method: string, path: string, body: unknown, as?: Caller) =>
    fetch(`${server.url}${path}`, { method, headers: { ...(as ? identityHeaders(as, method, path) : {}), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    const first = (await (await send('POST', '/api/v4/users', { username: 'sockadmin', email: 'sockadmin@example.com', password: 'Password-1' })).json()) as { id: string; roles: string };
    const admin: Caller = { id: first.id, roles: first.roles };
    const user = (await (await send('POST', '/api/v4/users', { username: 'sockuser', email: 'sockuser@example.com', password: 'Password-1' }, admin)).json()) as { id: string };
    const res = await send('PUT', `/api/v4/users/${user.id}/active`, { active: false }, admin);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get(AFFECTED_USERS_HEADER), user.id);
  } finally {
    await server.close();
    await app.stop();
    await bus.close();
  }
});
