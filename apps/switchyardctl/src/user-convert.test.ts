import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeMattermost } from './test-support/fake-mattermost';
import { runCtl } from './test-support/run-ctl';

let server: FakeMattermost;
let adminToken: string;
const ctl = (args: string[], target = server) => runCtl(['--url', target.url, '--token', adminToken, ...args]);

before(async () => {
  server = await new FakeMattermost().start();
  const admin = server.addUser({ username: 'admin', roles: 'system_admin system_user' });
  adminToken = server.addToken(admin.id).token;
});
after(() => server.stop());

test('when a user is converted by username, then GET /users/username then POST convert_to_bot are called and the bot is printed', async () => {
  const user = server.addUser({ username: 'carol' });

  const result = await ctl(['user', 'convert', 'carol', '--bot']);

  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requestsTo('GET', '/api/v4/users/username/carol').length, 1);
  assert.equal(server.requestsTo('POST', `/api/v4/users/${user.id}/convert_to_bot`).length, 1);
  assert.match(result.stdout, new RegExp(`^converted user carol \\(${user.id}\\) to a bot$`, 'm'));
  assert.match(result.stdout, /username: +carol/);
});

test('when a user is converted by e-mail, then GET /users/email is used', async () => {
  const user = server.addUser({ username: 'dave', email: 'dave@example.com' });

  const result = await ctl(['--json', 'user', 'convert', 'Dave@Example.com', '--bot']);

  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requestsTo('GET', `/api/v4/users/email/${encodeURIComponent('Dave@Example.com')}`).length, 1);
  const bot = JSON.parse(result.stdout) as { user_id: string; username: string };
  assert.deepEqual([bot.user_id, bot.username], [user.id, 'dave']);
});

test('when the server has no e-mail route, then the user list is paged to find the address', async () => {
  const noEmailRoute = await new FakeMattermost({ emailRoute: false }).start();
  try {
    const admin = noEmailRoute.addUser({ username: 'admin', roles: 'system_admin system_user' });
    const token = noEmailRoute.addToken(admin.id).token;
    for (let i = 0; i < 230; i++) noEmailRoute.addUser({ username: `filler${i}` });
    const target = noEmailRoute.addUser({ username: 'erin', email: 'erin@example.com' });

    const result = await runCtl(['--url', noEmailRoute.url, '--token', token, 'user', 'convert', 'erin@example.com', '--bot']);

    assert.equal(result.code, 0, result.stderr);
    const pages = noEmailRoute.requestsTo('GET', '/api/v4/users').map((r) => r.query.get('page'));
    assert.deepEqual(pages, ['0', '1']);
    assert.equal(noEmailRoute.requestsTo('POST', `/api/v4/users/${target.id}/convert_to_bot`).length, 1);

    const missing = await runCtl(['--url', noEmailRoute.url, '--token', token, 'user', 'convert', 'zed@example.com', '--bot']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: app\.user\.missing_account\.const: No user has the e-mail address zed@example\.com\.$/m);
  } finally {
    await noEmailRoute.stop();
  }
});

test('when a user is converted by id, then GET /users/{id} is used; a leading @ marks a username', async () => {
  const byId = server.addUser({ username: 'frank' });
  const byAt = server.addUser({ username: 'grace' });

  const first = await ctl(['user', 'convert', byId.id, '--bot']);
  const second = await ctl(['user', 'convert', '@grace', '--bot']);

  assert.equal(first.code, 0, first.stderr);
  assert.equal(server.requestsTo('GET', `/api/v4/users/${byId.id}`).length, 1);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(server.requestsTo('POST', `/api/v4/users/${byAt.id}/convert_to_bot`).length, 1);
});

test('when a 26-character username is not an id, then the username lookup follows the 404', async () => {
  const longName = 'abcdefghijklmnopqrstuvwxyz';
  const user = server.addUser({ username: longName });

  const result = await ctl(['user', 'convert', longName, '--bot']);

  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requestsTo('POST', `/api/v4/users/${user.id}/convert_to_bot`).length, 1);
});

test('when the caller is not an admin, then the permission error id is printed with exit code 1', async () => {
  const plain = server.addUser({ username: 'heidi' });
  const token = server.addToken(plain.id).token;

  const result = await runCtl(['--url', server.url, '--token', token, 'user', 'convert', 'heidi', '--bot']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: api\.context\.permissions\.app_error: You do not have the appropriate permissions\.$/m);
});

test('when the user does not exist, then the not-found id is printed and nothing is converted', async () => {
  const result = await ctl(['user', 'convert', 'nobody', '--bot']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: app\.user\.get_by_username\.app_error: /m);
  assert.equal(server.requests.filter((r) => r.path.endsWith('/convert_to_bot') && r.path.includes('nobody')).length, 0);
});
