import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Command } from '@mattermost/types/integrations';
import type { Team } from '@mattermost/types/teams';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { expectClientError } from './support/client';
import { patchConfig, type AdminSession } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, raw } from './support/http';
import { OfficialSocket } from './support/mm-websocket';
import type { OutgoingReceiver, Received } from './support/outgoing-receiver';
import { newChannel, newTeam, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** A receiver that never answers (until it is closed): the slow integration. */
async function startSilentServer(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer(() => {
    hits += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('custom slash commands, end to end', { timeout: 300_000 }, () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let world: IntegrationWorld;
  let target: Target;
  let admin: AdminSession;
  let receiver: OutgoingReceiver;
  let team: Team;
  let open: Channel;
  let priv: Channel;
  let member: Actor;
  let socket: OfficialSocket;

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: (url) => ({ IntegrationSigningSecret: secret, SiteURL: url }), alsoRestore: ['OutgoingIntegrationRequestsTimeout'] });
    ({ target, admin, receiver, team, channel: open, member } = world);
    priv = await newChannel(admin, team, 'P');
    await admin.client.addToChannel(member.id, priv.id);
    socket = new OfficialSocket(target.url, member.token);
    await socket.event('hello');
  });
  after(async () => {
    socket?.close();
    await world?.stop();
  });

  const newCommand = (path: string, extra: Partial<Command> = {}): Promise<Command> =>
    admin.client.addCommand({ team_id: team.id, trigger: `c${randomBytes(4).toString('hex')}`, url: `${receiver.url}${path}`, method: 'P', ...extra } as Command);

  /** Checks the Standard Webhooks signature with the independent package and returns the form. */
  function verifiedForm(request: Received): URLSearchParams {
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    // verify() checks the signature, then JSON-parses the payload: a form body passes the check and only fails the parse.
    const verify = (payload: string): void => {
      try {
        new Webhook(secret).verify(payload, headers);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    };
    verify(request.body);
    assert.throws(() => verify(`${request.body}&text=forged`), WebhookVerificationError, 'a changed body fails verification');
    return new URLSearchParams(request.body);
  }

  it('when commands are created, listed, edited, regenerated and deleted with the official client, then the reference shapes come back', async () => {
    const created = await newCommand('/crud', { display_name: 'Deploy', auto_complete: true, auto_complete_hint: '[env]' });
    assert.match(created.id, /^[a-z0-9]{26}$/);
    assert.match(created.token, /^[a-z0-9]{26}$/);
    assert.equal(created.creator_id, admin.user.id);
    const custom = await admin.client.getCustomTeamCommands(team.id);
    assert.equal(custom.find((c) => c.id === created.id)?.token, created.token);
    const listed = await member.client.getCommandsList(team.id);
    const shown = listed.find((c) => c.id === created.id);
    assert.equal(shown?.token, '', 'the autocomplete list is sanitised');
    assert.equal(shown?.url, '');
    const edited = await admin.client.editCommand({ ...created, trigger: 'Edited' + created.trigger, description: 'ships it' });
    assert.equal(edited.trigger, `edited${created.trigger}`);
    assert.equal(edited.token, created.token);
    const { token } = await admin.client.regenCommandToken(created.id);
    assert.notEqual(token, created.token);
    await expectClientError(member.client.addCommand({ team_id: team.id, trigger: 'mine', url: 'http://127.0.0.1/x', method: 'P' } as Command), 403, 'api.context.permissions.app_error');
    await expectClientError(member.client.regenCommandToken(created.id), 404, 'store.sql_command.save.get.app_error');
    const bot = await teamBot(target.url, admin, team, 'system_admin');
    await expectClientError(bot.client.addCommand({ team_id: team.id, trigger: 'botmade', url: 'http://127.0.0.1/x', method: 'P' } as Command), 403, 'api.command.create_command.bot.app_error');
    await expectClientError(admin.client.addCommand({ team_id: team.id, trigger: 'echo', url: 'http://127.0.0.1/x', method: 'P' } as Command), 400, 'api.command.duplicate_trigger.app_error');
    await expectClientError(admin.client.addCommand({ team_id: team.id, trigger: 'x y', url: 'http://127.0.0.1/x', method: 'P' } as Command), 400, 'model.command.is_valid.trigger.app_error');
    assert.deepEqual(await admin.client.deleteCommand(created.id), { status: 'OK' });
    await expectClientError(admin.client.regenCommandToken(created.id), 404, 'store.sql_command.save.get.app_error');
  });

  it('when a member runs a command in a public channel, then the signed request carries every field and the in_channel answer is a post readable at once', async () => {
    const cmd = await newCommand('/public');
    receiver.respond((r) => (r.path === '/public' ? { body: JSON.stringify({ response_type: 'in_channel', text: 'deployed <https://ci.example/1|build 1>', props: { build: 1 } }) } : {}));
    const answer = await member.client.executeCommand(`/${cmd.trigger} prod now`, { channel_id: open.id, team_id: team.id } as never);
    assert.equal(answer.text, 'deployed [build 1](https://ci.example/1)');
    assert.match(String(answer.trigger_id), /^[a-z0-9]{26}$/);
    const request = await receiver.waitFor((r) => r.path === '/public');
    assert.equal(request.headers.authorization, `Token ${cmd.token}`);
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = verifiedForm(request);
    for (const [key, value] of [['channel_id', open.id], ['channel_name', open.name], ['command', `/${cmd.trigger}`], ['team_id', team.id], ['team_domain', team.name], ['text', 'prod now'], ['token', cmd.token], ['user_id', member.id], ['user_name', member.username], ['root_id', '']]) {
      assert.equal(form.get(key as string), value, key);
    }
    assert.ok(form.get('response_url')?.startsWith(`${target.url}/hooks/commands/`));
    assert.ok((form.get('trigger_id') ?? '').length > 26);
    const posts = await member.client.getPosts(open.id);
    const post = posts.order.map((id) => posts.posts[id]).find((p) => p?.message === 'deployed [build 1](https://ci.example/1)');
    assert.ok(post, 'the in_channel post exists when execute returns');
    assert.equal(post.user_id, member.id);
    assert.equal(post.props.from_webhook, 'true');
    assert.equal(post.props.build, 1);
  });

  it('when a member runs a command in a private channel, then the ephemeral answer reaches them over the WebSocket and nothing is posted', async () => {
    const cmd = await newCommand('/private');
    receiver.respond((r) => (r.path === '/private' ? { body: JSON.stringify({ text: 'only you can see this' }) } : {}));
    const answer = await member.client.executeCommand(`/${cmd.trigger}`, { channel_id: priv.id, team_id: team.id } as never);
    assert.equal(answer.response_type, '');
    const frame = await socket.event('ephemeral_message', (f) => String(f.data?.post).includes('only you can see this'));
    const post = JSON.parse(String(frame.data?.post)) as { channel_id: string; user_id: string; type: string };
    assert.equal(post.channel_id, priv.id);
    assert.equal(post.type, 'system_ephemeral');
    assert.equal(frame.broadcast?.user_id, member.id);
    const posts = await member.client.getPosts(priv.id);
    assert.ok(!Object.values(posts.posts).some((p) => p.message === 'only you can see this'));
    const outsider = await teamMember(target.url, admin, team, 'x');
    await expectClientError(outsider.client.executeCommand(`/${cmd.trigger}`, { channel_id: priv.id, team_id: team.id } as never), 403, 'api.context.permissions.app_error');
  });

  it('when a member runs a command in a direct message, then the team in the body picks the command and the answer is posted in the DM', async () => {
    const cmd = await newCommand('/dm', { method: 'G' });
    const dm = await member.client.createDirectChannel([member.id, admin.user.id]);
    receiver.respond((r) => (r.path.startsWith('/dm') ? { body: JSON.stringify({ response_type: 'in_channel', text: 'dm answer' }) } : {}));
    await member.client.executeCommand(`/${cmd.trigger} hi`, { channel_id: dm.id, team_id: team.id } as never);
    const request = await receiver.waitFor((r) => r.path.startsWith('/dm'));
    assert.equal(request.method, 'GET');
    const query = new URL(request.path, 'http://x').searchParams;
    assert.equal(query.get('channel_id'), dm.id);
    assert.equal(query.get('text'), 'hi');
    assert.equal(query.get('team_id'), team.id);
    const posts = await admin.client.getPosts(dm.id);
    assert.ok(Object.values(posts.posts).some((p) => p.message === 'dm answer' && p.user_id === member.id));
    const elsewhere = await newTeam(admin);
    await expectClientError(member.client.executeCommand(`/${cmd.trigger}`, { channel_id: dm.id, team_id: elsewhere.id } as never), 403, 'api.context.permissions.app_error');
  });

  it('when the integration answers later through response_url twice, then both answers land as the user; a forged id is 404', async () => {
    const cmd = await newCommand('/later');
    receiver.respond((r) => (r.path === '/later' ? { body: '{}' } : {}));
    await member.client.executeCommand(`/${cmd.trigger}`, { channel_id: open.id, team_id: team.id } as never);
    const responseUrl = verifiedForm(await receiver.waitFor((r) => r.path === '/later')).get('response_url') ?? '';
    const path = new URL(responseUrl).pathname;
    for (const text of ['first late answer', 'second late answer']) {
      const res = await raw(target.url, 'POST', path, { body: { response_type: 'in_channel', text } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.text, 'ok');
    }
    const plain = await raw(target.url, 'POST', path, { rawBody: 'just text', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(plain.status, 200, 'plain text is an ephemeral answer');
    const posts = await member.client.getPosts(open.id);
    const late = Object.values(posts.posts).filter((p) => p.message.endsWith('late answer'));
    assert.deepEqual(late.map((p) => p.user_id), [member.id, member.id]);
    assertAppError(await raw(target.url, 'POST', `/hooks/commands/${randomBytes(13).toString('hex')}`, { body: { text: 'x' } }), 404, 'app.command_webhook.get.missing');
    const bad = await raw(target.url, 'POST', path, { rawBody: '{not json', headers: { 'Content-Type': 'application/json' } });
    assertAppError(bad, 400, 'web.command_webhook.parse.app_error');
  });

  it('when a command runs in a thread, then the request carries root_id and both its answer and the response_url follow-up reply in that thread (reference #15174)', async () => {
    const cmd = await newCommand('/threaded');
    const root = await member.client.createPost({ channel_id: open.id, message: 'deploy thread' } as never);
    receiver.respond((r) => (r.path === '/threaded' ? { body: JSON.stringify({ response_type: 'in_channel', text: 'first, in the thread' }) } : {}));
    await member.client.executeCommand(`/${cmd.trigger} go`, { channel_id: open.id, team_id: team.id, root_id: root.id } as never);
    const form = verifiedForm(await receiver.waitFor((r) => r.path === '/threaded'));
    assert.equal(form.get('root_id'), root.id);
    const path = new URL(form.get('response_url') ?? '').pathname;
    const later = await raw(target.url, 'POST', path, { body: { response_type: 'in_channel', text: 'later, in the thread' } });
    assert.equal(later.status, 200, later.text);
    const thread = await member.client.getPostThread(root.id);
    const replies = Object.values(thread.posts).filter((p) => p.id !== root.id).map((p) => [p.message, p.root_id]);
    assert.deepEqual(replies.sort(), [['first, in the thread', root.id], ['later, in the thread', root.id]]);
  });

  it('when the command URL is down, then execute answers the reference error at once, without retrying', async () => {
    const down = await startSilentServer();
    const url = down.url;
    await down.close();
    const cmd = await admin.client.addCommand({ team_id: team.id, trigger: `down${randomBytes(3).toString('hex')}`, url: `${url}/gone`, method: 'P' } as Command);
    const res = await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: `/${cmd.trigger}`, channel_id: open.id } });
    assertAppError(res, 500, 'api.command.execute_command.failed.app_error');
    receiver.respond((r) => (r.path === '/status' ? { status: 500, body: 'kaput' } : {}));
    const failing = await newCommand('/status');
    const resp = await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: `/${failing.trigger}`, channel_id: open.id } });
    assertAppError(resp, 500, 'api.command.execute_command.failed_resp.app_error');
    assert.equal(receiver.requests.filter((r) => r.path === '/status').length, 1, 'a failed command is not retried');
  });

  it('when the command URL is slower than OutgoingIntegrationRequestsTimeout, then execute fails with the reference error', async () => {
    const slow = await startSilentServer();
    try {
      await patchConfig(admin.client, { ServiceSettings: { OutgoingIntegrationRequestsTimeout: 1 } });
      const cmd = await admin.client.addCommand({ team_id: team.id, trigger: `slow${randomBytes(3).toString('hex')}`, url: `${slow.url}/slow`, method: 'P' } as Command);
      const res = await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: `/${cmd.trigger}`, channel_id: open.id } });
      assertAppError(res, 500, 'api.command.execute_command.failed.app_error');
      assert.equal(slow.hits(), 1, 'the integration was called once');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { OutgoingIntegrationRequestsTimeout: 30 } });
      await slow.close();
    }
  });

  it('when a command points at internal addresses, then the SSRF guard refuses them before connecting', async () => {
    await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '' } });
    try {
      const before = receiver.requests.length;
      // Literal addresses and metadata names are decided without DNS; loopback stays on this machine.
      for (const url of [`${receiver.url}/ssrf`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/x', 'http://[::ffff:7f00:1]/x', 'http://metadata.google.internal/x', 'http://0.0.0.0/x']) {
        const cmd = await admin.client.addCommand({ team_id: team.id, trigger: `s${randomBytes(4).toString('hex')}`, url, method: 'P' } as Command);
        const res = await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: `/${cmd.trigger}`, channel_id: open.id } });
        assertAppError(res, 500, 'api.command.execute_command.failed.app_error');
      }
      assert.equal(receiver.requests.length, before, 'the loopback receiver got nothing');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
    }
  });

  it('when execute is misused, then AppErrors: no slash, unknown trigger, bad channel id, oversize body', async () => {
    assertAppError(await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: 'no-slash', channel_id: open.id } }), 400, 'api.command.execute_command.start.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: '/nosuch', channel_id: open.id } }), 404, 'api.command.execute_command.not_found.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: '/x', channel_id: '../../x' } }), 400, 'api.command.execute_command.start.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, rawBody: '{"command": 7}' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/commands/execute', { body: { command: '/x', channel_id: open.id } }), 401, 'api.context.session_expired.app_error');
    const huge = await raw(target.url, 'POST', `/hooks/commands/${randomBytes(13).toString('hex')}`, { rawBody: 'x'.repeat(400_000), headers: { 'Content-Type': 'text/plain' } });
    assertAppError(huge, 413, 'api.context.request_body_too_large.app_error');
  });
});
