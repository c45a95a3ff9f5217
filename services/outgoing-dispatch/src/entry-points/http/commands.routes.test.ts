import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { harness, type Caller, type Harness } from '../../test-support/harness';

describe('slash commands CRUD', () => {
  let h: Harness;
  let teamId: string;
  let otherTeam: string;
  let admin: Caller;
  let teamAdmin: Caller;
  let teamAdmin2: Caller;
  let member: Caller;
  let outsider: Caller;

  before(async () => {
    h = await harness();
    teamId = h.world.team('cmds');
    otherTeam = h.world.team('other');
    admin = { id: h.world.user('admin').id, roles: 'system_admin system_user' };
    teamAdmin = { id: h.world.user('tadmin', { teamId, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
    teamAdmin2 = { id: h.world.user('tadmin2', { teamId, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
    member = { id: h.world.user('member', { teamId }).id, roles: 'system_user' };
    outsider = { id: h.world.user('outsider', { teamId: otherTeam, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
  });
  after(() => h.stop());

  const body = (extra: Record<string, unknown> = {}) => ({ team_id: teamId, trigger: `Deploy${newId().slice(0, 5)}`, url: 'http://example.com/cmd', method: 'P', ...extra });
  const create = (as: Caller, extra: Record<string, unknown> = {}) => h.request('POST', '/api/v4/commands', { as, body: body(extra) });

  it('when a team admin creates a command, then 201 with every key, a fresh token, the trigger lower-cased', async () => {
    const res = await create(teamAdmin, { trigger: 'MiXeD', token: 'chosen-by-client', id: 'x'.repeat(26), display_name: 'Deploy', auto_complete: true, auto_complete_hint: '[env]' });
    assert.equal(res.statusCode, 201, res.body);
    const cmd = res.json();
    assert.equal(cmd.trigger, 'mixed');
    assert.match(cmd.id, /^[a-z0-9]{26}$/);
    assert.notEqual(cmd.id, 'x'.repeat(26));
    assert.match(cmd.token, /^[a-z0-9]{26}$/);
    assert.equal(cmd.creator_id, teamAdmin.id);
    assert.equal(cmd.auto_complete, true);
    assert.deepEqual(Object.keys(cmd).sort(), ['auto_complete', 'auto_complete_desc', 'auto_complete_hint', 'create_at', 'creator_id', 'delete_at', 'description', 'display_name', 'icon_url', 'id', 'method', 'plugin_id', 'team_id', 'token', 'trigger', 'update_at', 'url', 'username']);
  });

  it('when the trigger is taken (another command or a built-in), then 400 duplicate_trigger', async () => {
    const first = (await create(teamAdmin, { trigger: 'unique1' })).json();
    assert.equal(first.trigger, 'unique1');
    for (const trigger of ['UNIQUE1', 'echo', 'shrug']) {
      const res = await create(teamAdmin2, { trigger });
      assert.equal(res.statusCode, 400, trigger);
      assert.equal(res.json().id, 'api.command.duplicate_trigger.app_error');
    }
    assert.equal((await h.request('POST', '/api/v4/commands', { as: outsider, body: { ...body({ trigger: 'unique1' }), team_id: otherTeam } })).statusCode, 201, 'triggers are per team');
  });

  it('when fields break the reference rules, then 400 with the field id, in order', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ trigger: '' }, 'trigger'],
      [{ trigger: '/slash' }, 'trigger'],
      [{ trigger: 'two words' }, 'trigger'],
      [{ trigger: 'x'.repeat(129) }, 'trigger'],
      [{ url: '' }, 'url'],
      [{ url: `http://e.com/${'a'.repeat(1020)}` }, 'url'],
      [{ url: 'ftp://e.com/x' }, 'url_http'],
      [{ method: 'p' }, 'method'],
      [{ method: '' }, 'method'],
      [{ display_name: 'd'.repeat(65) }, 'display_name'],
      [{ description: 'd'.repeat(129) }, 'description'],
    ];
    for (const [extra, field] of cases) {
      const res = await create(teamAdmin, extra);
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      assert.equal(res.json().id, `model.command.is_valid.${field}.app_error`, JSON.stringify(extra));
    }
    assert.equal((await create(teamAdmin, { trigger: 'a/b/c', method: 'G' })).statusCode, 201, '/ after the first character is allowed');
  });

  it('when the caller may not manage commands, then 403; without team_id 403 before 400; a bot is refused', async () => {
    assert.equal((await create(member)).json().id, 'api.context.permissions.app_error');
    const noTeam = await h.request('POST', '/api/v4/commands', { as: member, body: { trigger: 'x', url: 'http://e.com', method: 'P' } });
    assert.equal(noTeam.statusCode, 403);
    const bot = await create({ ...admin, isBot: true });
    assert.equal(bot.statusCode, 403);
    assert.equal(bot.json().id, 'api.command.create_command.bot.app_error');
    const botUser = h.world.user('somebot', { teamId, isBot: true });
    const forBot = await create(admin, { creator_id: botUser.id });
    assert.equal(forBot.statusCode, 403);
    assert.equal(forBot.json().id, 'api.command.create_command.bot.app_error');
    const notJson = await h.request('POST', '/api/v4/commands', { as: teamAdmin, raw: '{"trigger":5}' });
    assert.equal(notJson.statusCode, 400);
    assert.equal(notJson.json().id, 'api.context.invalid_body_param.app_error');
  });

  it('when EnableOnlyAdminIntegrations is off, then a team member manages their own commands only', async () => {
    h.setConfig((c) => (c.ServiceSettings.EnableOnlyAdminIntegrations = false));
    try {
      const mine = await create(member);
      assert.equal(mine.statusCode, 201, mine.body);
      const others = (await create(teamAdmin)).json();
      assert.equal((await h.request('DELETE', `/api/v4/commands/${others.id}`, { as: member })).statusCode, 403);
      assert.equal((await h.request('DELETE', `/api/v4/commands/${mine.json().id}`, { as: member })).statusCode, 200);
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnableOnlyAdminIntegrations = true));
    }
  });

  it('when commands are listed, then custom_only gives tokens (own unless manage-others) and the plain list is sanitised', async () => {
    const team = h.world.team('list');
    const a = { id: h.world.user('la', { teamId: team, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
    const u = { id: h.world.user('lu', { teamId: team }).id, roles: 'system_user' };
    const one = (await h.request('POST', '/api/v4/commands', { as: a, body: { ...body({ auto_complete: true }), team_id: team } })).json();
    const two = (await h.request('POST', '/api/v4/commands', { as: admin, body: { ...body(), team_id: team } })).json();
    const custom = await h.request('GET', `/api/v4/commands?team_id=${team}&custom_only=true`, { as: a });
    assert.deepEqual(custom.json().map((c: { id: string; token: string }) => [c.id, c.token]), [[one.id, one.token], [two.id, two.token]]);
    const plain = (await h.request('GET', `/api/v4/commands?team_id=${team}`, { as: a })).json();
    assert.deepEqual(plain.map((c: { token: string; url: string; method: string }) => [c.token, c.url, c.method]), [['', '', ''], ['', '', '']]);
    const auto = (await h.request('GET', `/api/v4/teams/${team}/commands/autocomplete`, { as: u })).json();
    assert.deepEqual(auto.map((c: { id: string; token: string }) => [c.id, c.token]), [[one.id, '']], 'the autocomplete route: auto_complete commands, sanitised');
    assert.equal((await h.request('GET', `/api/v4/teams/${team}/commands/autocomplete`, { as: outsider })).statusCode, 403);
    const asMember = (await h.request('GET', `/api/v4/commands?team_id=${team}`, { as: u })).json();
    assert.deepEqual(asMember.map((c: { id: string }) => c.id), [one.id], 'a member sees the autocomplete list only');
    assert.equal((await h.request('GET', `/api/v4/commands?team_id=${team}&custom_only=true`, { as: u })).statusCode, 403);
    assert.equal((await h.request('GET', `/api/v4/commands?team_id=${team}`, { as: outsider })).json().id, 'api.context.permissions.app_error');
    const missing = await h.request('GET', '/api/v4/commands', { as: a });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().id, 'api.context.invalid_body_param.app_error');
  });

  it('when someone else reads, changes or deletes a command, then 404 for outsiders and 403 without manage-others', async () => {
    const cmd = (await create(teamAdmin)).json();
    for (const as of [outsider, member]) {
      for (const [method, path] of [['GET', ''], ['DELETE', ''], ['PUT', '/regen_token']] as const) {
        const res = await h.request(method, `/api/v4/commands/${cmd.id}${path}`, { as });
        assert.equal(res.statusCode, 404, `${method} ${path}`);
        assert.equal(res.json().id, 'store.sql_command.save.get.app_error');
      }
      const put = await h.request('PUT', `/api/v4/commands/${cmd.id}`, { as, body: { ...cmd, team_id: otherTeam } });
      assert.equal(put.statusCode, 404, 'the team check does not reveal the command');
    }
    assert.equal((await h.request('GET', `/api/v4/commands/${newId()}`, { as: admin })).statusCode, 404);
    assert.equal((await h.request('GET', '/api/v4/commands/not-an-id', { as: admin })).json().id, 'api.context.invalid_url_param.app_error');
    assert.equal((await h.request('GET', `/api/v4/commands/${cmd.id}`, { as: teamAdmin2 })).statusCode, 200, 'team admins have manage-others');
  });

  it('when a command is updated, then id/token/creator/team are kept, the rest replaced; a partial body fails; team mismatch is 400', async () => {
    const cmd = (await create(teamAdmin, { username: 'bot', icon_url: 'http://e.com/i.png' })).json();
    const res = await h.request('PUT', `/api/v4/commands/${cmd.id}`, { as: teamAdmin, body: { ...cmd, token: 'forged', creator_id: admin.id, trigger: 'Renamed', method: 'G', username: '' } });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.json();
    assert.equal(updated.token, cmd.token);
    assert.equal(updated.creator_id, teamAdmin.id);
    assert.equal(updated.trigger, 'renamed');
    assert.equal(updated.method, 'G');
    assert.equal(updated.username, '');
    assert.ok(updated.update_at > cmd.update_at);
    const partial = await h.request('PUT', `/api/v4/commands/${cmd.id}`, { as: teamAdmin, body: { id: cmd.id, team_id: teamId, trigger: 'x', url: 'http://e.com' } });
    assert.equal(partial.json().id, 'model.command.is_valid.method.app_error');
    const mismatch = await h.request('PUT', `/api/v4/commands/${cmd.id}`, { as: teamAdmin, body: { ...updated, team_id: otherTeam } });
    assert.equal(mismatch.json().id, 'api.command.team_mismatch.app_error');
    const wrongId = await h.request('PUT', `/api/v4/commands/${cmd.id}`, { as: teamAdmin, body: { ...updated, id: newId() } });
    assert.equal(wrongId.json().id, 'api.context.invalid_body_param.app_error');
  });

  it('when a token is regenerated and the command deleted, then the new token is returned and the command is gone', async () => {
    const cmd = (await create(teamAdmin)).json();
    const regen = await h.request('PUT', `/api/v4/commands/${cmd.id}/regen_token`, { as: teamAdmin });
    assert.deepEqual(Object.keys(regen.json()), ['token']);
    assert.notEqual(regen.json().token, cmd.token);
    assert.equal((await h.request('GET', `/api/v4/commands/${cmd.id}`, { as: teamAdmin })).json().token, regen.json().token);
    const del = await h.request('DELETE', `/api/v4/commands/${cmd.id}`, { as: teamAdmin });
    assert.deepEqual(del.json(), { status: 'OK' });
    assert.equal((await h.request('GET', `/api/v4/commands/${cmd.id}`, { as: teamAdmin })).statusCode, 404);
    assert.equal((await create(teamAdmin, { trigger: cmd.trigger })).statusCode, 201, 'a deleted command frees its trigger');
  });

  it('when EnableCommands is off, then create and custom list are 501 and the lookups 404', async () => {
    const cmd = (await create(teamAdmin)).json();
    h.setConfig((c) => (c.ServiceSettings.EnableCommands = false));
    try {
      const created = await create(teamAdmin);
      assert.equal(created.statusCode, 501);
      assert.equal(created.json().id, 'api.command.disabled.app_error');
      assert.equal((await h.request('GET', `/api/v4/commands?team_id=${teamId}&custom_only=true`, { as: teamAdmin })).statusCode, 501);
      assert.deepEqual((await h.request('GET', `/api/v4/commands?team_id=${teamId}`, { as: teamAdmin })).json(), []);
      assert.equal((await h.request('GET', `/api/v4/commands/${cmd.id}`, { as: teamAdmin })).json().id, 'store.sql_command.save.get.app_error');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnableCommands = true));
    }
  });
});
