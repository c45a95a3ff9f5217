import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session } from './test-support/fake-services';
import { eventually, startHarness } from './test-support/harness';

test('when the same token is used again, then the cached session avoids a second resolve', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    const second = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(second.identity?.userId, s.session.userId);
    assert.equal(h.usersBots.resolveCalls, 1);
  } finally {
    await h.stop();
  }
});

test('when a users.events event names the user, then their cached sessions are dropped at once', async () => {
  const h = await startHarness();
  const s = session();
  const other = session();
  h.usersBots.sessions.set(s.token, s.session);
  h.usersBots.sessions.set(other.token, other.session);
  try {
    await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${other.token}` } });
    h.usersBots.sessions.delete(s.token); // revoked in users-bots …
    await h.publishUsersEvent('session.revoked', s.session.userId); // … and announced
    await eventually(async () => (await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } })).identity === null);
    const untouched = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${other.token}` } });
    assert.equal(untouched.identity?.userId, other.session.userId);
    assert.equal(h.usersBots.resolveCalls, 3);
  } finally {
    await h.stop();
  }
});

test('when a user is deactivated, then the very next request no longer carries their identity', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    h.usersBots.sessions.delete(s.token);
    await h.publishUsersEvent('user.deactivated', s.session.userId);
    const next = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(next.identity, null);
  } finally {
    await h.stop();
  }
});

test('when a service answers that it changed a user, then their cached sessions go before the answer and the header stays internal', async () => {
  const h = await startHarness();
  const s = session();
  h.usersBots.sessions.set(s.token, s.session);
  try {
    await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    h.usersBots.sessions.delete(s.token); // deactivated in users-bots; no users.events message arrives
    const res = await h.request({ method: 'PUT', url: `/api/v4/users/${s.session.userId}/affects/${s.session.userId}`, headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-switchyard-affected-users'], undefined);
    const next = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(next.identity, null);
  } finally {
    await h.stop();
  }
});
