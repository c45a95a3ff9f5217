import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actor, domainHarness } from '../../test-support/domain-harness';
import { createBot } from '../bots/create-bot.usecase';
import { createUser } from './create-user.usecase';

test('when bots exist but no human, then the first human still becomes system admin', async () => {
  const h = domainHarness();
  h.setConfig((c) => {
    c.ServiceSettings.EnableBotAccountCreation = true;
  });
  await createBot(h.deps, actor('o'.repeat(26), 'system_admin'), { username: 'early-bot' });
  const first = await createUser(h.deps, undefined, { username: 'first', email: 'first@example.com', password: 'password-1' });
  assert.equal(first.roles, 'system_admin system_user');
});

test('when the first human was deactivated, then the next sign-up is not first (deleted users count)', async () => {
  const h = domainHarness();
  h.setConfig((c) => {
    c.TeamSettings.EnableOpenServer = true;
  });
  const first = await createUser(h.deps, undefined, { username: 'first', email: 'first@example.com', password: 'password-1' });
  await h.deps.users.update(first.id, { deleteAt: 5 });
  const second = await createUser(h.deps, undefined, { username: 'second', email: 'second@example.com', password: 'password-1' });
  assert.equal(second.roles, 'system_user');
});

test('when a user is created, then the password is stored as an scrypt hash, never in clear', async () => {
  const h = domainHarness();
  const user = await createUser(h.deps, undefined, { username: 'hashme', email: 'hashme@example.com', password: 'password-1' });
  const stored = await h.deps.users.findById(user.id);
  assert.match(stored?.passwordHash ?? '', /^scrypt\$/);
  assert.doesNotMatch(JSON.stringify(stored), /password-1/);
  assert.ok(await h.deps.passwords.verify('password-1', stored?.passwordHash ?? ''));
});

test('when EnableDeveloper is on, then short passwords pass but empty ones still fail', async () => {
  const h = domainHarness();
  h.setConfig((c) => {
    c.ServiceSettings.EnableDeveloper = true;
  });
  await createUser(h.deps, undefined, { username: 'dev', email: 'dev@example.com', password: 'abc' });
  h.setConfig((c) => {
    c.TeamSettings.EnableOpenServer = true;
  });
  await assert.rejects(createUser(h.deps, undefined, { username: 'dev2', email: 'dev2@example.com', password: '' }), { id: 'model.user.is_valid.pwd.app_error' });
});

test('when an admin creates an ldap user, then no password is needed and auth_service is kept', async () => {
  const h = domainHarness();
  const root = await createUser(h.deps, undefined, { username: 'root', email: 'root@example.com', password: 'password-1' });
  const ldap = await createUser(h.deps, actor(root.id, root.roles), { username: 'ldapuser', email: 'ldap@example.com', authService: 'ldap', authData: 'uid=1' });
  assert.equal(ldap.authService, 'ldap');
  assert.equal(ldap.passwordHash, '');
});
