import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeMattermost } from './test-support/fake-mattermost';
import { runCtl } from './test-support/run-ctl';

let server: FakeMattermost;
let adminId: string;
let adminToken: string;
let userToken: string;
const ctl = (args: string[], token = adminToken) => runCtl(['--url', server.url, '--token', token, ...args]);

before(async () => {
  server = await new FakeMattermost().start();
  const admin = server.addUser({ username: 'admin', roles: 'system_admin system_user' });
  adminId = admin.id;
  adminToken = server.addToken(admin.id).token;
  userToken = server.addToken(server.addUser({ username: 'plain' }).id).token;
});
after(() => server.stop());

test('when a bot is created with a display name and description, then POST /bots gets them and the bot is printed', async () => {
  const result = await ctl(['bot', 'create', 'deploy-bot', '--display-name', 'Deploy Bot', '--description', 'ships things']);

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requestsTo('POST', '/api/v4/bots').at(-1)?.body, { username: 'deploy-bot', display_name: 'Deploy Bot', description: 'ships things' });
  assert.match(result.stdout, /^created bot deploy-bot$/m);
  assert.match(result.stdout, /display name: +Deploy Bot/);
  assert.match(result.stdout, /owner id: +[a-z0-9]{26}/);
  assert.match(result.stdout, /status: +active/);
});

test('when a bot is created with --json, then stdout is the bot object and only the username is sent', async () => {
  const result = await ctl(['--json', 'bot', 'create', 'json-bot']);

  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requestsTo('POST', '/api/v4/bots').at(-1)?.body, { username: 'json-bot' });
  const bot = JSON.parse(result.stdout) as { username: string; user_id: string; owner_id: string };
  assert.equal(bot.username, 'json-bot');
  assert.equal(bot.owner_id, adminId);
});

test('when bot creation is disabled, then api.bot.create_disabled is printed with exit code 1', async () => {
  server.enableBotAccountCreation = false;
  try {
    const result = await ctl(['bot', 'create', 'nope-bot']);

    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: api\.bot\.create_disabled: Bot creation has been disabled\.$/m);
    assert.equal(result.stdout, '');
  } finally {
    server.enableBotAccountCreation = true;
  }
});

test('when the bot username is invalid or taken, then the server error ids reach stderr', async () => {
  const invalid = await ctl(['bot', 'create', 'Upper']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /error: model\.bot\.is_valid\.username\.app_error: /);

  const taken = await ctl(['bot', 'create', 'admin']);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /error: app\.user\.save\.username_exists\.app_error: /);
});

test('when a non-admin creates a bot, then the permission error id is printed', async () => {
  const result = await ctl(['bot', 'create', 'mine-bot'], userToken);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /error: api\.context\.permissions\.app_error: You do not have the appropriate permissions\./);
});

test('when a bot is disabled and enabled by username, then the user id is looked up and the bot routes are called', async () => {
  const bot = server.addBot('toggle-bot', adminId);

  const disabled = await ctl(['bot', 'disable', 'toggle-bot']);
  assert.equal(disabled.code, 0, disabled.stderr);
  assert.equal(server.requestsTo('GET', '/api/v4/users/username/toggle-bot').length, 1);
  assert.equal(server.requestsTo('POST', `/api/v4/bots/${bot.user_id}/disable`).length, 1);
  assert.match(disabled.stdout, /^disabled bot toggle-bot$/m);
  assert.match(disabled.stdout, /status: +disabled/);

  const listed = await ctl(['--json', 'bot', 'list']);
  assert.ok(!(JSON.parse(listed.stdout) as Array<{ username: string }>).some((b) => b.username === 'toggle-bot'));
  const all = await ctl(['--json', 'bot', 'list', '--include-deleted']);
  assert.equal(server.requestsTo('GET', '/api/v4/bots').at(-1)?.query.get('include_deleted'), 'true');
  assert.ok((JSON.parse(all.stdout) as Array<{ username: string }>).some((b) => b.username === 'toggle-bot'));

  const enabled = await ctl(['bot', 'enable', bot.user_id]);
  assert.equal(enabled.code, 0, enabled.stderr);
  assert.equal(server.requestsTo('POST', `/api/v4/bots/${bot.user_id}/enable`).length, 1);
  assert.match(enabled.stdout, /status: +active/);
});

test('when the bot does not exist, then the not-found id is printed with exit code 1', async () => {
  const byName = await ctl(['bot', 'disable', 'ghost-bot']);
  assert.equal(byName.code, 1);
  assert.match(byName.stderr, /error: app\.user\.get_by_username\.app_error: /);

  const human = server.addUser({ username: 'human' });
  const notABot = await ctl(['bot', 'disable', human.id]);
  assert.equal(notABot.code, 1);
  assert.match(notABot.stderr, /error: store\.sql_bot\.get\.missing\.app_error: Bot does not exist\./);
});

test('when there are more bots than one page holds, then every page is fetched and printed as a table', async () => {
  const fresh = await new FakeMattermost().start();
  try {
    const owner = fresh.addUser({ username: 'owner', roles: 'system_admin system_user' });
    const token = fresh.addToken(owner.id).token;
    for (let i = 0; i < 205; i++) fresh.addBot(`bot-${String(i).padStart(3, '0')}`, owner.id, { display_name: `Bot ${i}` });

    const result = await runCtl(['--url', fresh.url, '--token', token, 'bot', 'list']);

    assert.equal(result.code, 0, result.stderr);
    const pages = fresh.requestsTo('GET', '/api/v4/bots').map((r) => `${r.query.get('page')}/${r.query.get('per_page')}`);
    assert.deepEqual(pages, ['0/200', '1/200']);
    const lines = result.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^USERNAME +USER ID +DISPLAY NAME +OWNER ID +STATUS$/);
    assert.equal(lines.length, 206);
    assert.match(lines[1] ?? '', /^bot-000 +[a-z0-9]{26} +Bot 0 +[a-z0-9]{26} +active$/);
  } finally {
    await fresh.stop();
  }
});

test('when there are no bots, then the text output says so', async () => {
  const empty = await new FakeMattermost().start();
  try {
    const admin = empty.addUser({ username: 'admin', roles: 'system_admin system_user' });
    const result = await runCtl(['--url', empty.url, '--token', empty.addToken(admin.id).token, 'bot', 'list']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'no bots\n');
  } finally {
    await empty.stop();
  }
});
