import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

describe('PUT /users/{user_id}/patch', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness({ EnableBotAccountCreation: true }));
  });
  after(async () => h.stop());

  const patch = (as: Caller, userId: string, body: unknown) => h.request('PUT', `/api/v4/users/${userId}/patch`, { as, body });
  const settingsOf = async (userId: string) =>
    ((await h.request('POST', '/internal/v1/users/mention-settings', { service: 'posts', body: { ids: [userId] } })).json() as { settings: Record<string, unknown> }).settings[userId];

  it('when a user patches their notify props, then the map is replaced, mention keys cleaned up, user.updated goes out and posts reads the keys', async () => {
    const u = await h.user();
    h.bus.clear();
    const res = await patch(u, 'me', { notify_props: { mention_keys: 'Deploy,,Ship', channel: 'false', desktop: 'all' } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.id, u.id);
    assert.deepEqual(body.notify_props, { mention_keys: 'deploy,ship', channel: 'false', desktop: 'all' });
    assert.equal(body.email, u.email, 'answered as its owner sees it');
    assert.equal(h.bus.published.find((p) => p.value.type === 'user.updated')?.key, u.id);
    assert.deepEqual(await settingsOf(u.id), { mention_keys: ['deploy', 'ship'], first_name: '', channel: false });
    const seen = (await h.request('GET', '/api/v4/users/me', { as: u })).json();
    assert.deepEqual(seen.notify_props, body.notify_props);
  });

  it('when the notify props are an empty map, then the defaults are stored; a null or absent one leaves them', async () => {
    const u = await h.user();
    await patch(u, u.id, { notify_props: { mention_keys: 'x' } });
    const emptied = await patch(u, u.id, { notify_props: {} });
    assert.equal(emptied.json().notify_props.mention_keys, '');
    assert.equal(emptied.json().notify_props.channel, 'true');
    const kept = await patch(u, u.id, { notify_props: null, nickname: 'nick' });
    assert.equal(kept.statusCode, 200);
    assert.equal(kept.json().nickname, 'nick');
    assert.equal(kept.json().notify_props.channel, 'true');
  });

  it('when someone else patches a user, then only an admin may; a bot is patched by whoever manages it, not by its own token (the newest reference)', async () => {
    const owner = await h.user();
    const other = await h.user();
    assertError(await patch(other, owner.id, { notify_props: { channel: 'false' } }), 403, 'api.context.permissions.app_error');
    const byAdmin = await patch(admin, owner.id, { notify_props: { channel: 'false' } });
    assert.equal(byAdmin.statusCode, 200);
    assert.deepEqual(byAdmin.json().notify_props, { channel: 'false' });
    const created = await h.request('POST', '/api/v4/bots', { as: admin, body: { username: `bot${Date.now().toString(36)}` } });
    assert.equal(created.statusCode, 201, created.body);
    const botId = created.json().user_id as string;
    assertError(await patch(other, botId, { nickname: 'x' }), 403, 'api.context.permissions.app_error');
    assertError(await patch({ id: botId, roles: 'system_user', isBot: true }, 'me', { nickname: 'self' }), 403, 'api.context.permissions.app_error');
    assert.equal((await patch(admin, botId, { notify_props: { mention_keys: 'alerts' } })).statusCode, 200, 'its owner (manage_bots)');
    // The map is replaced whole: without `channel: "true"` the bot no longer heeds @channel (the reference reads it so too).
    assert.deepEqual(await settingsOf(botId), { mention_keys: ['alerts'], first_name: '', channel: false });
  });

  it('when the user does not exist, then 400 user_id for an admin and 403 for anyone else; a plain user never patches an admin', async () => {
    const plain = await h.user();
    const unknown = 'u'.repeat(26);
    assertError(await patch(admin, unknown, { nickname: 'x' }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await patch(plain, unknown, { nickname: 'x' }), 403, 'api.context.permissions.app_error');
    assertError(await patch(plain, admin.id, { nickname: 'x' }), 403, 'api.context.permissions.app_error');
  });

  it('when the patch is invalid, then the reference ids: body types, username, nickname, locale, timezone, custom status, taken names', async () => {
    const u = await h.user();
    const taken = await h.user();
    assertError(await patch(u, u.id, { notify_props: { channel: 1 } }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await patch(u, u.id, []), 400, 'api.context.invalid_body_param.app_error');
    assertError(await patch(u, u.id, { username: 'all' }), 400, 'model.user.is_valid.username.app_error');
    assertError(await patch(u, u.id, { nickname: 'n'.repeat(65) }), 400, 'model.user.is_valid.nickname.app_error');
    assertError(await patch(u, u.id, { locale: 'toolong' }), 400, 'model.user.is_valid.locale.app_error');
    assertError(await patch(u, u.id, { timezone: { manualTimezone: 'z'.repeat(300) } }), 400, 'model.user.is_valid.timezone_limit.app_error');
    assertError(await patch(u, u.id, { props: { customStatus: 'not json' } }), 400, 'model.user.is_valid.invalidProperty.app_error');
    assertError(await patch(u, u.id, { username: taken.username.toUpperCase() }), 400, 'app.user.save.username_exists.app_error');
    assertError(await patch(admin, u.id, { email: taken.email }), 400, 'app.user.save.email_exists.app_error');
    const unchanged = (await h.request('GET', '/api/v4/users/me', { as: u })).json();
    assert.equal(unchanged.username, u.username);
    const renamed = await patch(u, u.id, { username: `${u.username}X` });
    assert.equal(renamed.json().username, `${u.username}x`);
  });

  it('when a user changes their own email, then their password is needed and checked; an admin changes anyone\'s without it', async () => {
    const u = await h.user({ password: 'password-1' });
    assertError(await patch(u, u.id, { email: `new-${u.email}` }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await patch(u, u.id, { email: `new-${u.email}`, password: 'wrong-password' }), 401, 'api.user.check_user_password.invalid.app_error');
    const changed = await patch(u, u.id, { email: `New-${u.email}`, password: 'password-1' });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().email, `new-${u.email}`);
    const byAdmin = await patch(admin, u.id, { email: `admin-${u.email}` });
    assert.equal(byAdmin.json().email, `admin-${u.email}`);
  });
});
