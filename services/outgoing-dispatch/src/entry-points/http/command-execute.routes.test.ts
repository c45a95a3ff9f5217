import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { fastDelivery, harness, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

describe('slash command execution', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let member: Caller;
  let stranger: Caller;
  let open: string;

  before(async () => {
    h = await harness();
    receiver = await startReceiver();
    h.setConfig((c) => {
      fastDelivery(c);
      c.ServiceSettings.SiteURL = 'https://chat.example.com/';
      c.ServiceSettings.IntegrationSigningSecret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    });
    teamId = h.world.team('exec');
    admin = { id: h.world.user('admin').id, roles: 'system_admin system_user' };
    member = { id: h.world.user('alice', { teamId }).id, roles: 'system_user' };
    stranger = { id: h.world.user('mallory', { teamId }).id, roles: 'system_user' };
    const channel = h.world.channel(teamId, 'O', 'town');
    open = channel.id;
    h.world.joinChannel(open, member.id);
  });
  after(async () => {
    await receiver.close();
    await h.stop();
  });

  const newCommand = async (extra: Record<string, unknown> = {}) => {
    const res = await h.request('POST', '/api/v4/commands', { as: admin, body: { team_id: teamId, trigger: `t${newId().slice(0, 8)}`, url: `${receiver.url}/cmd`, method: 'P', ...extra } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; trigger: string; token: string };
  };
  const execute = (as: Caller, command: string, channelId = open, extra: Record<string, unknown> = {}) =>
    h.request('POST', '/api/v4/commands/execute', { as, body: { command, channel_id: channelId, ...extra } });

  it('when a member runs a command, then the integration gets every field as a form with the token, and the ephemeral answer reaches only them', async () => {
    const cmd = await newCommand();
    receiver.respond(() => ({ body: JSON.stringify({ text: 'see <https://x.example|this>', goto_location: 'https://go.example' }) }));
    const before = receiver.requests.length;
    const res = await execute(member, `/${cmd.trigger.toUpperCase()}  two words @alice ~town`);
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json();
    assert.equal(answer.text, 'see [this](https://x.example)');
    assert.equal(answer.goto_location, 'https://go.example');
    assert.match(answer.trigger_id, /^[a-z0-9]{26}$/);
    const request = receiver.requests[before];
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request.headers.authorization, `Token ${cmd.token}`);
    assert.ok(request.headers['webhook-signature']);
    const form = new URLSearchParams(request.body);
    assert.equal(form.get('command'), `/${cmd.trigger}`);
    assert.equal(form.get('text'), ' two words @alice ~town');
    assert.equal(form.get('token'), cmd.token);
    assert.equal(form.get('team_id'), teamId);
    assert.equal(form.get('team_domain'), 'exec');
    assert.equal(form.get('channel_id'), open);
    assert.equal(form.get('channel_name'), 'town');
    assert.equal(form.get('user_id'), member.id);
    assert.equal(form.get('user_name'), 'alice');
    assert.equal(form.get('root_id'), '');
    assert.deepEqual(form.getAll('user_mentions'), ['alice']);
    assert.deepEqual(form.getAll('user_mentions_ids'), [member.id]);
    assert.deepEqual(form.getAll('channel_mentions'), ['town']);
    assert.match(form.get('response_url') ?? '', /^https:\/\/chat\.example\.com\/hooks\/commands\/[a-z0-9]{26}$/);
    assert.ok((form.get('trigger_id') ?? '').length > 26, 'the integration gets the full signed trigger id');
    const ephemeral = h.bus.published.filter((p) => p.topic === Topics.realtimeEvents).at(-1);
    assert.equal((ephemeral?.value.payload as { user_id: string }).user_id, member.id);
    assert.equal((ephemeral?.value.payload as { post: { message: string; type: string } }).post.type, 'system_ephemeral');
  });

  it('when the method is G, then the fields are appended to the URL query and there is no body', async () => {
    const cmd = await newCommand({ method: 'G', url: `${receiver.url}/get?keep=1` });
    receiver.respond(() => ({ body: '{}' }));
    const before = receiver.requests.length;
    assert.equal((await execute(member, `/${cmd.trigger} hi`)).statusCode, 200);
    const request = receiver.requests[before];
    assert.equal(request?.method, 'GET');
    assert.equal(request?.body, '');
    const query = new URL(request?.path ?? '', 'http://x').searchParams;
    assert.equal(query.get('keep'), '1');
    assert.equal(query.get('text'), 'hi');
  });

  it('when the answer is in_channel with extra responses, then posts by the user with from_webhook, overrides only when enabled', async () => {
    const cmd = await newCommand({ username: 'cmdname' });
    receiver.respond(() => ({ body: JSON.stringify({ response_type: 'in_channel', text: 'main', username: 'respname', props: { from_webhook: 'false', k: 1, override_username: 'sneaky' }, extra_responses: [{ response_type: 'in_channel', text: 'extra' }, { text: 'only me' }] }) }));
    const before = h.world.createdPosts.length;
    assert.equal((await execute(member, `/${cmd.trigger}`)).statusCode, 200);
    const posts = h.world.createdPosts.slice(before);
    assert.deepEqual(posts.map((p) => [p.post.message, p.post.user_id, p.source]), [['main', member.id, 'command'], ['extra', member.id, 'command']]);
    assert.deepEqual(posts[0]?.post.props, { k: 1, from_webhook: 'true' });
    h.setConfig((c) => (c.ServiceSettings.EnablePostUsernameOverride = true));
    try {
      const again = h.world.createdPosts.length;
      await execute(member, `/${cmd.trigger}`);
      assert.equal(h.world.createdPosts[again]?.post.props.override_username, 'cmdname', "the command's username wins over the response's");
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnablePostUsernameOverride = false));
    }
  });

  it('when the integration fails, then the reference errors at once: down 500 failed, non-200 failed_resp, bad JSON failed, plain text ephemeral', async () => {
    const down = await newCommand({ url: 'http://127.0.0.1:1/nothing' });
    const res = await execute(member, `/${down.trigger}`);
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().id, 'api.command.execute_command.failed.app_error');
    const cmd = await newCommand();
    receiver.respond(() => ({ status: 503, body: 'busy' }));
    const resp = await execute(member, `/${cmd.trigger}`);
    assert.equal(resp.json().id, 'api.command.execute_command.failed_resp.app_error');
    assert.match(resp.json().message, /503 Service Unavailable/);
    receiver.respond(() => ({ body: '{"text": 5}' }));
    assert.equal((await execute(member, `/${cmd.trigger}`)).json().id, 'api.command.execute_command.failed.app_error');
    receiver.respond(() => ({ body: '' }));
    assert.equal((await execute(member, `/${cmd.trigger}`)).json().id, 'api.command.execute_command.failed.app_error');
    receiver.respond(() => ({ body: 'plain words', headers: { 'Content-Type': 'text/plain' } }));
    const plain = await execute(member, `/${cmd.trigger}`);
    assert.equal(plain.json().text, 'plain words');
  });

  it('when the request is wrong, then start / 403 / not_found / site_url_required errors', async () => {
    assert.equal((await execute(member, '/')).json().id, 'api.command.execute_command.start.app_error');
    assert.equal((await execute(member, 'nope')).json().id, 'api.command.execute_command.start.app_error');
    assert.equal((await execute(member, '/x', 'bad')).json().id, 'api.command.execute_command.start.app_error');
    const priv = h.world.channel(teamId, 'P');
    const forbidden = await execute(stranger, '/x', priv.id);
    assertError(forbidden, 403, 'api.context.permissions.app_error');
    assert.equal((await execute(member, '/x', newId())).statusCode, 403);
    const unknown = await execute(member, '/nosuchtrigger');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().id, 'api.command.execute_command.not_found.app_error');
    const cmd = await newCommand();
    h.setConfig((c) => (c.ServiceSettings.SiteURL = ''));
    try {
      assert.equal((await execute(member, `/${cmd.trigger}`)).json().id, 'api.command.execute_command.site_url_required.app_error');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.SiteURL = 'https://chat.example.com'));
    }
  });

  it('when the response_url is used, then 5 uses within the window, answers as the user, forged ids 404', async () => {
    const cmd = await newCommand();
    receiver.respond(() => ({ body: '{}' }));
    const before = receiver.requests.length;
    await execute(member, `/${cmd.trigger}`);
    const url = new URLSearchParams(receiver.requests[before]?.body).get('response_url') ?? '';
    const path = new URL(url).pathname;
    const posted = h.world.createdPosts.length;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const r = await h.request('POST', path, { body: { response_type: 'in_channel', text: `late ${i}` } });
      statuses.push(r.statusCode);
      if (i === 0) assert.equal(r.body, 'ok');
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 400]);
    assert.deepEqual(h.world.createdPosts.slice(posted).map((p) => [p.post.user_id, p.post.channel_id]), Array.from({ length: 5 }, () => [member.id, open]));
    assert.equal((await h.request('POST', `/hooks/commands/${newId()}`, { body: {} })).json().id, 'app.command_webhook.get.missing');
    assertError(await h.request('POST', '/hooks/commands/..%2f', { body: {} }), 404, 'app.command_webhook.get.missing');
    const elsewhere = h.world.channel(teamId, 'P');
    const second = receiver.requests.length;
    await execute(member, `/${cmd.trigger}`);
    const url2 = new URL(new URLSearchParams(receiver.requests[second]?.body).get('response_url') ?? '').pathname;
    const hijack = await h.request('POST', url2, { body: { response_type: 'in_channel', text: 'x', channel_id: elsewhere.id } });
    assert.equal(hijack.statusCode, 500);
    assert.equal(hijack.json().id, 'api.command.execute_command.create_post_failed.app_error');
  });
});

describe('slash command execution behind the SSRF guard (stubbed DNS: no lookup, no packet)', () => {
  let h: Harness;
  let admin: Caller;
  let teamId: string;
  let channelId: string;
  const looked: string[] = [];

  before(async () => {
    h = await harness({
      resolver: async (host) => {
        looked.push(host);
        if (host === 'private.example') return [{ address: '10.1.2.3', family: 4 }];
        if (host === 'mixed.example') return [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
        if (host === 'mapped.example') return [{ address: '::ffff:169.254.169.254', family: 6 }];
        throw Object.assign(new Error('no such host'), { code: 'ENOTFOUND' });
      },
    });
    h.setConfig((c) => (c.ServiceSettings.SiteURL = 'https://chat.example.com'));
    teamId = h.world.team('ssrf');
    admin = { id: h.world.user('admin').id, roles: 'system_admin system_user' };
    channelId = h.world.channel(teamId, 'O').id;
  });
  after(() => h.stop());

  it('when the command host resolves to an internal address (or is a metadata name), then execute fails with the reference error', async () => {
    for (const url of ['http://private.example/x', 'http://mixed.example/x', 'http://mapped.example/x', 'http://metadata.google.internal/x', 'http://127.0.0.1:9/x', 'http://unknown.example/x']) {
      const trigger = `s${newId().slice(0, 8)}`;
      assert.equal((await h.request('POST', '/api/v4/commands', { as: admin, body: { team_id: teamId, trigger, url, method: 'P' } })).statusCode, 201);
      const res = await h.request('POST', '/api/v4/commands/execute', { as: admin, body: { command: `/${trigger}`, channel_id: channelId } });
      assert.equal(res.statusCode, 500, url);
      assert.equal(res.json().id, 'api.command.execute_command.failed.app_error', url);
    }
    assert.ok(!looked.includes('metadata.google.internal'), 'metadata names are refused before any lookup');
    assert.ok(looked.includes('private.example'));
  });
});

describe('a response_url after its 30 minutes', () => {
  let h: Harness;
  let receiver: Receiver;
  let now = 1_800_000_000_000;

  before(async () => {
    h = await harness({ clock: { now: () => now } });
    receiver = await startReceiver();
    h.setConfig((c) => {
      fastDelivery(c);
      c.ServiceSettings.SiteURL = 'https://chat.example.com';
    });
  });
  after(async () => {
    await receiver.close();
    await h.stop();
  });

  it('when it is used after 30 minutes, then 404 missing, although it was never used', async () => {
    const teamId = h.world.team('late');
    const admin = { id: h.world.user('admin').id, roles: 'system_admin system_user' };
    const channelId = h.world.channel(teamId, 'O').id;
    h.world.joinChannel(channelId, admin.id);
    const trigger = `t${newId().slice(0, 8)}`;
    assert.equal((await h.request('POST', '/api/v4/commands', { as: admin, body: { team_id: teamId, trigger, url: `${receiver.url}/c`, method: 'P' } })).statusCode, 201);
    receiver.respond(() => ({ body: '{}' }));
    assert.equal((await h.request('POST', '/api/v4/commands/execute', { as: admin, body: { command: `/${trigger}`, channel_id: channelId } })).statusCode, 200);
    const path = new URL(new URLSearchParams(receiver.requests.at(-1)?.body).get('response_url') ?? '').pathname;
    now += 30 * 60_000;
    assert.equal((await h.request('POST', path, { body: { text: 'just in time' } })).statusCode, 200, 'exactly 30 minutes is still valid');
    now += 1;
    const late = await h.request('POST', path, { body: { text: 'too late' } });
    assert.equal(late.statusCode, 404);
    assert.equal(late.json().id, 'app.command_webhook.get.missing');
  });
});
