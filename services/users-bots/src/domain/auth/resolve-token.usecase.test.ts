import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { actor, domainHarness } from '../../test-support/domain-harness';
import { createBot } from '../bots/create-bot.usecase';
import { createAccessToken } from '../tokens/create-access-token.usecase';
import { createUser } from '../users/create-user.usecase';
import { login } from './login.usecase';
import { resolveToken } from './resolve-token.usecase';

async function refused(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isAppError(error));
    assert.equal(error.id, 'api.context.session_expired.app_error');
    return error.detailedError;
  }
  assert.fail('expected a 401');
}

async function setup() {
  const h = domainHarness();
  h.setConfig((c) => {
    c.ServiceSettings.EnableBotAccountCreation = true;
    c.ServiceSettings.EnableUserAccessTokens = true;
  });
  const admin = await createUser(h.deps, undefined, { username: 'root', email: 'root@example.com', password: 'password-1' });
  const boss = actor(admin.id, admin.roles);
  return { h, admin, boss };
}

test('when the same new PAT is resolved concurrently, then one persistent session is created and both answers agree', async () => {
  const { h, admin, boss } = await setup();
  const { secret } = await createAccessToken(h.deps, boss, admin.id, { description: 'x' });
  const [a, b] = await Promise.all([resolveToken(h.deps, secret), resolveToken(h.deps, secret)]);
  assert.equal(a.sessionId, b.sessionId);
  assert.equal((await h.deps.sessions.listByUser(admin.id)).length, 1);
  assert.equal(a.sessionType, 'UserAccessToken');
});

test('when the token is unknown, too long or empty, then 401 session_expired', async () => {
  const { h } = await setup();
  await refused(resolveToken(h.deps, 'nope'));
  await refused(resolveToken(h.deps, ''));
  await refused(resolveToken(h.deps, 'x'.repeat(500)));
});

test('when a human PAT is used while EnableUserAccessTokens is off, then 401 with detail UserAccessToken and the session survives', async () => {
  const { h, admin, boss } = await setup();
  const { secret } = await createAccessToken(h.deps, boss, admin.id, { description: 'x' });
  await resolveToken(h.deps, secret);
  h.setConfig((c) => {
    c.ServiceSettings.EnableUserAccessTokens = false;
  });
  assert.equal(await refused(resolveToken(h.deps, secret)), 'UserAccessToken');
  assert.equal((await h.deps.sessions.listByUser(admin.id)).length, 1);
});

test('when a bot token is used while EnableUserAccessTokens is off, then it still resolves, as a bot, never expiring', async () => {
  const { h, boss } = await setup();
  const bot = await createBot(h.deps, boss, { username: 'ci-bot' });
  const { secret } = await createAccessToken(h.deps, boss, bot.bot.id, { description: 'ci' });
  h.setConfig((c) => {
    c.ServiceSettings.EnableUserAccessTokens = false;
  });
  const session = await resolveToken(h.deps, secret);
  assert.equal(session.isBot, true);
  assert.equal(session.expiresAt, 0);
  assert.equal(session.tokenId !== undefined, true);
});

test('when a login session user is deactivated behind its back, then the session no longer resolves', async () => {
  const { h, admin } = await setup();
  const { token } = await login(h.deps, { loginId: 'root', password: 'password-1' });
  await h.deps.users.update(admin.id, { deleteAt: 1 });
  assert.equal(await refused(resolveToken(h.deps, token)), 'user inactive');
});

test('when a PAT session outlives its disabled token, then it is refused and removed', async () => {
  const { h, admin, boss } = await setup();
  const { secret, token } = await createAccessToken(h.deps, boss, admin.id, { description: 'x' });
  await resolveToken(h.deps, secret);
  await h.deps.tokens.setActive(token.id, false);
  assert.equal(await refused(resolveToken(h.deps, secret)), 'token disabled');
  assert.equal((await h.deps.sessions.listByUser(admin.id)).length, 0);
});
