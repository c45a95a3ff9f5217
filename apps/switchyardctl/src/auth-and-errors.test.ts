import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeMattermost } from './test-support/fake-mattermost';
import { runCtl } from './test-support/run-ctl';

let server: FakeMattermost;
let adminToken: string;
const PASSWORD = 'S3cret-pass!';

before(async () => {
  server = await new FakeMattermost().start();
  const admin = server.addUser({ username: 'admin', roles: 'system_admin system_user', password: PASSWORD });
  adminToken = server.addToken(admin.id).token;
  server.addBot('helper', admin.id);
});
after(() => server.stop());

test('when --token is given, then it is sent as a bearer token and never echoed', async () => {
  const result = await runCtl(['--url', server.url, '--token', adminToken, 'bot', 'list']);

  assert.equal(result.code, 0, result.stderr);
  const request = server.requestsTo('GET', '/api/v4/bots').at(-1);
  assert.equal(request?.authorization, `Bearer ${adminToken}`);
  assert.match(result.stdout, /helper/);
  assert.ok(!result.stdout.includes(adminToken) && !result.stderr.includes(adminToken));
});

test('when SWITCHYARD_URL and SWITCHYARD_TOKEN are set, then they are used and global options may follow the command', async () => {
  const result = await runCtl(['bot', 'list', '--json'], { SWITCHYARD_URL: `${server.url}/`, SWITCHYARD_TOKEN: adminToken });

  assert.equal(result.code, 0, result.stderr);
  const bots = JSON.parse(result.stdout) as Array<{ username: string }>;
  assert.deepEqual(bots.map((b) => b.username), ['helper']);
  assert.equal(server.requestsTo('GET', '/api/v4/bots').at(-1)?.authorization, `Bearer ${adminToken}`);
});

test('when --login and --password are given, then the CLI signs in, uses the Token header and signs out, never printing the password', async () => {
  const before = server.requests.length;

  const result = await runCtl(['--url', server.url, '--login', 'admin', '--password', PASSWORD, 'bot', 'list']);

  assert.equal(result.code, 0, result.stderr);
  const calls = server.requests.slice(before);
  assert.deepEqual(calls.map((r) => `${r.method} ${r.path}`), ['POST /api/v4/users/login', 'GET /api/v4/bots', 'POST /api/v4/users/logout']);
  assert.deepEqual(calls[0]?.body, { login_id: 'admin', password: PASSWORD, token: '', deviceId: '' });
  assert.match(calls[1]?.authorization ?? '', /^Bearer [a-z0-9]{26}$/);
  assert.equal(calls[2]?.authorization, calls[1]?.authorization);
  assert.equal(server.sessions.size, 0, 'the session opened for the command is closed');
  assert.ok(!`${result.stdout}${result.stderr}`.includes(PASSWORD));
});

test('when the password comes from SWITCHYARD_PASSWORD, then the login works the same', async () => {
  const result = await runCtl(['--url', server.url, '--login', 'admin@example.com', 'bot', 'list', '--json'], { SWITCHYARD_PASSWORD: PASSWORD });

  assert.equal(result.code, 0, result.stderr);
  assert.equal((JSON.parse(result.stdout) as unknown[]).length, 1);
});

test('when the login is refused, then the error id is printed, the exit code is 1 and the password is not shown', async () => {
  const result = await runCtl(['--url', server.url, '--login', 'admin', '--password', 'wrong-Pa55', 'bot', 'list']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: api\.user\.login\.invalid_credentials_email_username: /m);
  assert.ok(!`${result.stdout}${result.stderr}`.includes('wrong-Pa55'));
  assert.equal(result.stdout, '');
});

test('when the token is not accepted, then the session-expired id is printed with exit code 1', async () => {
  const result = await runCtl(['--url', server.url, '--token', 'x'.repeat(26), 'bot', 'list']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: api\.context\.session_expired\.app_error: Invalid or expired session/m);
  assert.match(result.stderr, /request id: /);
  assert.ok(!result.stderr.includes('x'.repeat(26)));
});

test('when no credentials are given, then it is a usage error (exit 2) and nothing is sent', async () => {
  const before = server.requests.length;

  const result = await runCtl(['--url', server.url, 'bot', 'list']);

  assert.equal(result.code, 2);
  assert.match(result.stderr, /^error: no credentials/m);
  assert.equal(server.requests.length, before);
});

test('when the command line is wrong, then the exit code is 2', async () => {
  const cases: Array<{ args: string[]; message: RegExp }> = [
    { args: ['bot', 'frobnicate'], message: /unknown command 'frobnicate'/ },
    { args: ['bot', 'list', '--bogus'], message: /unknown option '--bogus'/ },
    { args: ['bot', 'create'], message: /missing required argument 'username'/ },
    { args: ['token', 'create', 'admin'], message: /required option '--description <text>' not specified/ },
    { args: ['--token', adminToken, 'user', 'convert', 'admin'], message: /--bot/ },
    { args: ['--token', adminToken, '--login', 'admin', '--password', 'p', 'bot', 'list'], message: /either --token or --login/ },
    { args: ['--login', 'admin', 'bot', 'list'], message: /--login needs a password/ },
    { args: ['--url', 'ftp://example', '--token', adminToken, 'bot', 'list'], message: /invalid --url/ },
    { args: [], message: /Usage: switchyardctl/ },
  ];
  const results = await Promise.all(cases.map(({ args }) => runCtl(args, { SWITCHYARD_URL: server.url })));
  cases.forEach(({ args, message }, i) => {
    const result = results[i]!;
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  });
});

test('when help or the version is asked for, then the exit code is 0', async () => {
  const help = await runCtl(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Commands:[\s\S]*user[\s\S]*bot[\s\S]*token/);
  const version = await runCtl(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
});

test('when the server cannot be reached, then a connection error id is printed with exit code 1', async () => {
  const closed = await new FakeMattermost().start();
  await closed.stop();

  const result = await runCtl(['--url', closed.url, '--token', adminToken, 'bot', 'list']);

  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: switchyardctl\.connection_failed: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/m);
});

test('when the server answers with something that is not error JSON, then the status stands in for the id', async () => {
  server.override = { status: 429, body: 'limit exceeded\n', contentType: 'text/plain' };
  try {
    const result = await runCtl(['--url', server.url, '--token', adminToken, 'bot', 'list']);

    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: http\.429: HTTP 429 Too Many Requests: limit exceeded$/m);
  } finally {
    server.override = undefined;
  }
});
