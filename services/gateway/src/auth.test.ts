import { test } from 'node:test';
import assert from 'node:assert/strict';
import { session } from './test-support/fake-services';
import { startHarness, type Harness } from './test-support/harness';

function withSessions(h: Harness, ...entries: ReturnType<typeof session>[]): void {
  for (const e of entries) h.usersBots.sessions.set(e.token, e.session);
}

test('when a valid bearer token is sent, then the service gets the signed identity of its session', async () => {
  const h = await startHarness();
  const s = session({ isBot: true, sessionType: 'UserAccessToken', tokenId: 'tid', roles: 'system_user system_post_all' });
  withSessions(h, s);
  try {
    for (const authorization of [`Bearer ${s.token}`, `BEARER ${s.token}`, `bearer ${s.token}`, `token ${s.token}`]) {
      const echo = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization } });
      assert.deepEqual(echo.identity && { ...echo.identity, issuedAt: 0 }, {
        userId: s.session.userId,
        sessionId: s.session.sessionId,
        roles: 'system_user system_post_all',
        isBot: true,
        sessionType: 'UserAccessToken',
        tokenId: 'tid',
        issuedAt: 0,
      });
    }
  } finally {
    await h.stop();
  }
});

test('when the cookie and the bearer header carry different tokens, then the cookie wins', async () => {
  const h = await startHarness();
  const cookie = session();
  const bearer = session();
  withSessions(h, cookie, bearer);
  try {
    const echo = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { cookie: `MMAUTHTOKEN=${cookie.token}`, authorization: `Bearer ${bearer.token}` } });
    assert.equal(echo.identity?.userId, cookie.session.userId);
  } finally {
    await h.stop();
  }
});

test('when the token is unknown, then the request goes on without identity (login and hooks ignore it)', async () => {
  const h = await startHarness({ services: ['users-bots', 'incoming-hooks'] });
  try {
    const me = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: 'Bearer nosuchtoken' } });
    assert.equal(me.identity, null);
    const hook = await h.echo({ method: 'POST', url: '/hooks/key1', headers: { authorization: 'Bearer nosuchtoken' }, payload: '{"text":"hi"}' });
    assert.equal(hook.identity, null);
    assert.equal(hook.body, '{"text":"hi"}');
  } finally {
    await h.stop();
  }
});

test('when a valid token comes in access_token, then 401 api.context.token_provided.app_error', async () => {
  const h = await startHarness();
  const s = session();
  withSessions(h, s);
  try {
    const res = await h.request({ method: 'GET', url: `/api/v4/users/me?access_token=${s.token}` });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.json().id, 'api.context.token_provided.app_error');
    const withHeader = await h.echo({ method: 'GET', url: `/api/v4/users/me?access_token=${s.token}`, headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(withHeader.identity?.userId, s.session.userId);
  } finally {
    await h.stop();
  }
});

test('when a cookie-authenticated non-GET lacks the CSRF header, then it is forwarded without identity', async () => {
  const h = await startHarness();
  const s = session();
  withSessions(h, s);
  const cookie = `MMAUTHTOKEN=${s.token}`;
  try {
    const bare = await h.echo({ method: 'POST', url: '/api/v4/posts', headers: { cookie }, payload: '{}' });
    assert.equal(bare.identity, null);
    const wrong = await h.echo({ method: 'POST', url: '/api/v4/posts', headers: { cookie, 'x-csrf-token': 'wrong' }, payload: '{}' });
    assert.equal(wrong.identity, null);
    const good = await h.echo({ method: 'POST', url: '/api/v4/posts', headers: { cookie, 'x-csrf-token': s.session.csrfToken }, payload: '{}' });
    assert.equal(good.identity?.userId, s.session.userId);
    const xhr = await h.echo({ method: 'POST', url: '/api/v4/posts', headers: { cookie, 'x-requested-with': 'XMLHttpRequest' }, payload: '{}' });
    assert.equal(xhr.identity?.userId, s.session.userId);
    const get = await h.echo({ method: 'GET', url: '/api/v4/users/me', headers: { cookie } });
    assert.equal(get.identity?.userId, s.session.userId);
    const bearer = await h.echo({ method: 'POST', url: '/api/v4/posts', headers: { authorization: `Bearer ${s.token}` }, payload: '{}' });
    assert.equal(bearer.identity?.userId, s.session.userId);
  } finally {
    await h.stop();
  }
});

test('when ExperimentalStrictCSRFEnforcement is on, then X-Requested-With alone is not enough', async () => {
  const h = await startHarness({ config: (c) => (c.ServiceSettings.ExperimentalStrictCSRFEnforcement = true) });
  const s = session();
  withSessions(h, s);
  try {
    const xhr = await h.echo({ method: 'PUT', url: '/api/v4/users/me/patch', headers: { cookie: `MMAUTHTOKEN=${s.token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: '{}' });
    assert.equal(xhr.identity, null);
    const good = await h.echo({ method: 'PUT', url: '/api/v4/users/me/patch', headers: { cookie: `MMAUTHTOKEN=${s.token}`, 'x-csrf-token': s.session.csrfToken }, payload: '{}' });
    assert.equal(good.identity?.userId, s.session.userId);
  } finally {
    await h.stop();
  }
});

test('when users-bots cannot resolve tokens, then session routes get 503 but incoming hooks still go through', async () => {
  const h = await startHarness({ services: ['users-bots', 'incoming-hooks'] });
  h.usersBots.resolveDown = true;
  try {
    const me = await h.request({ method: 'GET', url: '/api/v4/users/me', headers: { authorization: 'Bearer sometoken' } });
    assert.equal(me.statusCode, 503);
    assert.equal(me.json().id, 'api.context.server_busy.app_error');
    const hook = await h.echo({ method: 'POST', url: '/hooks/key1', headers: { authorization: 'Bearer sometoken' }, payload: '{}' });
    assert.equal(hook.identity, null);
  } finally {
    await h.stop();
  }
});
