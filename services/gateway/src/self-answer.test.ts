import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Echo } from './test-support/fake-services';
import { session } from './test-support/fake-services';
import { eventually, startHarness, type Harness } from './test-support/harness';

/** `GET /api/v4/users/me` as the client sends it; `upstream` is the request id users-bots saw (a reused answer keeps the first one's). */
async function me(h: Harness, token: string, headers: Record<string, string> = {}): Promise<{ requestId: string; upstream: string | undefined; body: Echo }> {
  const res = await h.request({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${token}`, ...headers } });
  assert.equal(res.statusCode, 200);
  const body = res.json<Echo>();
  return { requestId: String(res.headers['x-request-id']), upstream: body.headers['x-request-id'] as string | undefined, body };
}

const fresh = (read: { requestId: string; upstream: string | undefined }) => read.upstream === read.requestId;

test('when a session reads its own user twice, then the second answer is reused with its own request id and no identity is forwarded', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    const first = await me(h, s.token);
    assert.ok(fresh(first));
    const second = await me(h, s.token);
    assert.equal(second.upstream, first.requestId, 'answered from the gateway');
    assert.notEqual(second.requestId, first.requestId);
    assert.deepEqual(second.body, first.body);
  } finally {
    await h.stop();
  }
});

test('when another session of any user reads users/me, or a read is conditional, then it is not given a reused answer', async () => {
  const h = await startHarness();
  const a = session();
  const b = session();
  h.usersBots.sessions.set(a.token, a.session);
  h.usersBots.sessions.set(b.token, b.session);
  try {
    await me(h, a.token);
    const other = await me(h, b.token);
    assert.ok(fresh(other));
    assert.equal(other.body.identity?.userId, b.session.userId);
    assert.ok(fresh(await me(h, a.token, { 'if-none-match': '"x"' })));
    const other2 = await h.request({ method: 'GET', url: '/api/v4/users/me?x=1', headers: { authorization: `Bearer ${a.token}` } });
    assert.equal(other2.json<Echo>().headers['x-request-id'], other2.headers['x-request-id']);
  } finally {
    await h.stop();
  }
});

test('when a users.events event names the user, then their next read goes to users-bots', async () => {
  // Answers outlive the wait below, so only the eviction can make a read fresh.
  const h = await startHarness({ env: { USERS_ME_CACHE_TTL_MS: '10000' } });
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await me(h, s.token);
    assert.ok(!fresh(await me(h, s.token)));
    await h.publishUsersEvent('user.updated', s.session.userId);
    await eventually(async () => fresh(await me(h, s.token)));
  } finally {
    await h.stop();
  }
});

test('when a service answers that it changed the user, then the very next read goes to users-bots', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await me(h, s.token);
    const res = await h.request({ method: 'PUT', url: `/api/v4/users/${s.session.userId}/affects/${s.session.userId}`, headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(res.statusCode, 200);
    assert.ok(fresh(await me(h, s.token)));
  } finally {
    await h.stop();
  }
});

test('when the live config changes, then reused answers are dropped', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await me(h, s.token);
    await h.publishConfig({ ...h.usersBots.config, ServiceSettings: { ...h.usersBots.config.ServiceSettings, MaximumPayloadSizeBytes: 4242 } });
    await eventually(() => h.gateway.config.current().ServiceSettings.MaximumPayloadSizeBytes === 4242);
    assert.ok(fresh(await me(h, s.token)));
  } finally {
    await h.stop();
  }
});

test('when USERS_ME_CACHE_TTL_MS is 0, then every read goes to users-bots', async () => {
  const h = await startHarness({ env: { USERS_ME_CACHE_TTL_MS: '0' } });
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await me(h, s.token);
    assert.ok(fresh(await me(h, s.token)));
  } finally {
    await h.stop();
  }
});
