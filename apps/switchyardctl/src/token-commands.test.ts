import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeMattermost } from './test-support/fake-mattermost';
import { runCtl } from './test-support/run-ctl';

let server: FakeMattermost;
let adminToken: string;
const ctl = (args: string[]) => runCtl(['--url', server.url, '--token', adminToken, ...args]);

before(async () => {
  server = await new FakeMattermost().start();
  const admin = server.addUser({ username: 'admin', roles: 'system_admin system_user' });
  adminToken = server.addToken(admin.id).token;
});
after(() => server.stop());

test('when a token is created for a bot by username, then the id and the secret are printed once', async () => {
  const bot = server.addBot('ci-bot', [...server.users.values()][0]!.id);

  const result = await ctl(['token', 'create', 'ci-bot', '--description', 'CI pipeline']);

  assert.equal(result.code, 0, result.stderr);
  const request = server.requestsTo('POST', `/api/v4/users/${bot.user_id}/tokens`).at(-1);
  assert.deepEqual(request?.body, { description: 'CI pipeline' });
  const created = [...server.tokens.values()].find((t) => t.description === 'CI pipeline')!;
  assert.match(result.stdout, new RegExp(`token id: +${created.id}$`, 'm'));
  assert.match(result.stdout, new RegExp(`token: +${created.token}$`, 'm'));
  assert.equal(result.stdout.split(created.token).length - 1, 1, 'the secret appears exactly once');
  assert.ok(!result.stdout.includes(adminToken) && !result.stderr.includes(adminToken));
  assert.match(result.stderr, /shown only this once/);
});

test('when a token is created with --json, then stdout is the token object including the secret', async () => {
  const user = server.addUser({ username: 'alice' });

  const result = await ctl(['--json', 'token', 'create', user.id, '--description', 'scripts']);

  assert.equal(result.code, 0, result.stderr);
  const token = JSON.parse(result.stdout) as { id: string; token: string; user_id: string; description: string };
  assert.equal(token.user_id, user.id);
  assert.equal(token.description, 'scripts');
  assert.match(token.token, /^[a-z0-9]{26}$/);
  assert.equal(result.stderr, '');
});

test('when a token is revoked, then POST /users/tokens/revoke gets its id and the token stops working', async () => {
  const user = server.addUser({ username: 'bob' });
  const token = server.addToken(user.id, 'short-lived');
  const before = await runCtl(['--url', server.url, '--token', token.token, 'bot', 'list']);
  assert.equal(before.code, 0, before.stderr);

  const result = await ctl(['token', 'revoke', token.id]);

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requestsTo('POST', '/api/v4/users/tokens/revoke').at(-1)?.body, { token_id: token.id });
  assert.equal(result.stdout, `revoked token ${token.id}\n`);
  const afterRevoke = await runCtl(['--url', server.url, '--token', token.token, 'bot', 'list']);
  assert.equal(afterRevoke.code, 1);
  assert.match(afterRevoke.stderr, /api\.context\.session_expired\.app_error/);
});

test('when the token to revoke does not exist, then the server error id is printed with exit code 1', async () => {
  const result = await ctl(['--json', 'token', 'revoke', 'a'.repeat(26)]);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: app\.user_access_token\.get_by_id\.app_error: /m);
  assert.equal(result.stdout, '');
});

test('when the token owner does not exist, then the lookup error id is printed', async () => {
  const tokenCallsBefore = server.requests.filter((r) => r.path.endsWith('/tokens')).length;

  const result = await ctl(['token', 'create', 'nobody', '--description', 'x']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: app\.user\.get_by_username\.app_error: /m);
  assert.equal(server.requests.filter((r) => r.path.endsWith('/tokens')).length, tokenCallsBefore);
});
