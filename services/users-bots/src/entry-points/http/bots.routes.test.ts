import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('bots', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness());
  });
  after(async () => h.stop());

  const create = (as: Caller, body: unknown) => h.request('POST', '/api/v4/bots', { as, body });

  it('when a user without create_bot asks, then 403 permissions comes before the disabled-flag 403', async () => {
    const u = await h.user();
    const res = await create(u, { username: 'nopebot' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
    const disabled = await create(admin, { username: 'nopebot' });
    assert.equal(disabled.statusCode, 403);
    assert.equal(disabled.json().id, 'api.bot.create_disabled');
  });

  it('when bot creation is enabled, then 201 with the Bot, owner = caller, and the bot is a user with a localhost email', async () => {
    await h.patchConfig({ ServiceSettings: { EnableBotAccountCreation: true } });
    h.bus.clear();
    const res = await create(admin, { username: 'helper.bot', display_name: 'Helper', description: 'Helps' });
    assert.equal(res.statusCode, 201);
    const bot = res.json();
    assert.equal(bot.username, 'helper.bot');
    assert.equal(bot.display_name, 'Helper');
    assert.equal(bot.description, 'Helps');
    assert.equal(bot.owner_id, admin.id);
    assert.equal(bot.delete_at, 0);
    assert.equal(bot.system_owned, false);
    assert.ok(h.bus.types().includes('bot.created'));
    const user = (await h.request('GET', `/api/v4/users/${bot.user_id}`, { as: admin })).json();
    assert.equal(user.is_bot, true);
    assert.equal(user.email, 'helper.bot@localhost');
    assert.equal(user.bot_description, 'Helps');
    assert.equal(user.first_name, 'Helper');
    assert.equal(user.roles, 'system_user');
  });

  it('when a bot asks to create a bot, then 403 permissions even as an admin', async () => {
    const bot = (await create(admin, { username: 'adminbot' })).json();
    const res = await create({ id: bot.user_id, roles: 'system_user system_admin', isBot: true }, { username: 'childbot' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
  });

  it('when the username breaks the bot rules, then 400 model.bot.is_valid.username; duplicates are username_exists', async () => {
    for (const username of ['ab', 'Upper', '1starts', 'ends.', 'x'.repeat(23), 'has space', 'all', undefined, '']) {
      const res = await create(admin, username === undefined ? {} : { username });
      assert.equal(res.statusCode, 400, String(username));
      assert.equal(res.json().id, 'model.bot.is_valid.username.app_error', String(username));
    }
    assert.equal((await create(admin, { username: 'abc' })).statusCode, 201);
    assert.equal((await create(admin, { username: 'a'.repeat(22) })).statusCode, 201);
    const taken = await create(admin, { username: 'admin' });
    assert.equal(taken.json().id, 'app.user.save.username_exists.app_error');
    const long = await create(admin, { username: 'longname', display_name: 'd'.repeat(65) });
    assert.equal(long.json().id, 'model.bot.is_valid.user_id.app_error');
    const desc = await create(admin, { username: 'longdesc', description: 'd'.repeat(1025) });
    assert.equal(desc.json().id, 'model.bot.is_valid.description.app_error');
  });

  it('when listing bots, then read_others_bots sees all, read_bots only own, neither is 403; disabled ones need include_deleted', async () => {
    const u = await h.user();
    assertError(await h.request('GET', '/api/v4/bots', { as: u }), 403, 'api.context.permissions.app_error');
    const all = (await h.request('GET', '/api/v4/bots?per_page=200', { as: admin })).json() as Array<{ username: string; system_owned: boolean }>;
    assert.ok(all.some((b) => b.username === 'switchyard' && b.system_owned));
    const paged = (await h.request('GET', '/api/v4/bots?per_page=1&page=1', { as: admin })).json();
    assert.equal(paged.length, 1);
    const bot = (await create(admin, { username: 'tobedisabled' })).json();
    await h.request('POST', `/api/v4/bots/${bot.user_id}/disable`, { as: admin });
    const active = (await h.request('GET', '/api/v4/bots?per_page=200', { as: admin })).json() as Array<{ user_id: string }>;
    assert.ok(!active.some((b) => b.user_id === bot.user_id));
    const withDeleted = (await h.request('GET', '/api/v4/bots?per_page=200&include_deleted=true', { as: admin })).json() as Array<{ user_id: string }>;
    assert.ok(withDeleted.some((b) => b.user_id === bot.user_id));
  });

  it('when a bot is not visible to the caller, then GET is 404 store.sql_bot.get.missing, never 403', async () => {
    const u = await h.user();
    const bot = (await create(admin, { username: 'hiddenbot' })).json();
    const res = await h.request('GET', `/api/v4/bots/${bot.user_id}`, { as: u });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().id, 'store.sql_bot.get.missing.app_error');
    assert.equal((await h.request('GET', `/api/v4/bots/${bot.user_id}`, { as: admin })).statusCode, 200);
    assert.equal((await h.request('GET', '/api/v4/bots/not-an-id', { as: admin })).statusCode, 400);
    assert.equal((await h.request('GET', `/api/v4/bots/${u.id}`, { as: admin })).statusCode, 404);
  });

  it('when a bot is patched, then the user is renamed and its email rewritten; nothing different changes nothing', async () => {
    const bot = (await create(admin, { username: 'renameme', display_name: 'Old' })).json();
    const same = await h.request('PUT', `/api/v4/bots/${bot.user_id}`, { as: admin, body: { display_name: 'Old' } });
    assert.equal(same.statusCode, 200);
    assert.equal(same.json().update_at, bot.update_at);
    const res = await h.request('PUT', `/api/v4/bots/${bot.user_id}`, { as: admin, body: { username: 'renamed', display_name: 'New', description: 'd' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().username, 'renamed');
    assert.equal(res.json().display_name, 'New');
    const user = (await h.request('GET', `/api/v4/users/${bot.user_id}`, { as: admin })).json();
    assert.equal(user.username, 'renamed');
    assert.equal(user.email, 'renamed@localhost');
    const bad = await h.request('PUT', `/api/v4/bots/${bot.user_id}`, { as: admin, body: { username: 'Bad Name' } });
    assert.equal(bad.json().id, 'model.bot.is_valid.username.app_error');
    const taken = await h.request('PUT', `/api/v4/bots/${bot.user_id}`, { as: admin, body: { username: 'admin' } });
    assert.equal(taken.json().id, 'app.user.save.username_exists.app_error');
  });

  it('when a user lacks manage rights, then 404 without read rights and 403 with them', async () => {
    const bot = (await create(admin, { username: 'managed' })).json();
    const u = await h.user();
    const hidden = await h.request('PUT', `/api/v4/bots/${bot.user_id}`, { as: u, body: { description: 'x' } });
    assert.equal(hidden.statusCode, 404);
    assert.equal(hidden.json().id, 'store.sql_bot.get.missing.app_error');
    assertError(await h.request('POST', `/api/v4/bots/${bot.user_id}/disable`, { as: u }), 404, 'store.sql_bot.get.missing.app_error');
  });

  it('when the system bot is disabled, then 400 system_owned and it stays enabled', async () => {
    const all = (await h.request('GET', '/api/v4/bots?per_page=200', { as: admin })).json() as Array<{ user_id: string; username: string }>;
    const system = all.find((b) => b.username === 'switchyard');
    assert.ok(system);
    const res = await h.request('POST', `/api/v4/bots/${system.user_id}/disable`, { as: admin });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'api.bot.system_owned.app_error');
    assertError(await h.request('DELETE', `/api/v4/users/${system.user_id}`, { as: admin }), 400, 'api.bot.system_owned.app_error');
    assert.equal((await h.request('GET', `/api/v4/bots/${system.user_id}`, { as: admin })).json().delete_at, 0);
  });

  it('when a bot is disabled and enabled, then events go out and the Bot shows delete_at', async () => {
    const bot = (await create(admin, { username: 'toggler' })).json();
    h.bus.clear();
    const off = await h.request('POST', `/api/v4/bots/${bot.user_id}/disable`, { as: admin });
    assert.ok(off.json().delete_at > 0);
    assert.deepEqual(h.bus.types(), ['bot.disabled']);
    const on = await h.request('POST', `/api/v4/bots/${bot.user_id}/enable`, { as: admin });
    assert.equal(on.json().delete_at, 0);
    assert.deepEqual(h.bus.types(), ['bot.disabled', 'bot.enabled']);
  });

  it('when a bot is assigned, then the owner changes; a bot owner is 403 assign_bot; a missing user is 404', async () => {
    const bot = (await create(admin, { username: 'assignee' })).json();
    const u = await h.user();
    const res = await h.request('POST', `/api/v4/bots/${bot.user_id}/assign/${u.id}`, { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().owner_id, u.id);
    const other = (await create(admin, { username: 'otherbot' })).json();
    const toBot = await h.request('POST', `/api/v4/bots/${bot.user_id}/assign/${other.user_id}`, { as: admin });
    assert.equal(toBot.statusCode, 403);
    assert.equal(toBot.json().id, 'api.context.permissions.app_error'); // detail (assign_bot) shows only with EnableDeveloper
    assertError(await h.request('POST', `/api/v4/bots/${bot.user_id}/assign/${'n'.repeat(26)}`, { as: admin }), 404, 'app.user.missing_account.const');
  });

  it('when a bot is converted to a user, then a password is required and the user can log in', async () => {
    const bot = (await create(admin, { username: 'becomehuman' })).json();
    const u = await h.user();
    assertError(await h.request('POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, { as: u, body: { password: 'password-1' } }), 403, 'api.context.permissions.app_error');
    const noPassword = await h.request('POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, { as: admin, body: {} });
    assert.equal(noPassword.statusCode, 400);
    assert.equal(noPassword.json().id, 'api.context.invalid_body_param.app_error');
    const empty = await h.request('POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, { as: admin, body: { password: '' } });
    assertError(empty, 400, 'api.context.invalid_body_param.app_error');
    const res = await h.request('POST', `/api/v4/bots/${bot.user_id}/convert_to_user?set_system_admin=true`, { as: admin, body: { password: 'password-1', email: 'human@example.com' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().is_bot, undefined);
    assert.equal(res.json().roles, 'system_admin system_user');
    assertError(await h.request('GET', `/api/v4/bots/${bot.user_id}`, { as: admin }), 404, 'store.sql_bot.get.missing.app_error');
    const login = await h.request('POST', '/api/v4/users/login', { body: { login_id: 'becomehuman', password: 'password-1' } });
    assert.equal(login.statusCode, 200);
  });
});
