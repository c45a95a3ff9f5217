import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { parsed } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

interface Pref {
  user_id: string;
  category: string;
  name: string;
  value: string;
}

describe('preferences and the per-user collapsed threads preference', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const url = (): string => world.target.url;
  const put = (who: { token: string }, userId: string, body: unknown) => raw(url(), 'PUT', `/api/v4/users/${userId}/preferences`, { token: who.token, body });
  const del = (who: { token: string }, userId: string, body: unknown) => raw(url(), 'POST', `/api/v4/users/${userId}/preferences/delete`, { token: who.token, body });
  const get = (who: { token: string }, path: string) => raw(url(), 'GET', path, { token: who.token });
  const crt = (who: Actor, value: string): Pref => ({ user_id: who.id, category: 'display_settings', name: 'collapsed_reply_threads', value });

  before(async () => {
    world = await wsWorld({ alsoRestore: ['CollapsedThreads'] });
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a user saves, reads and deletes preferences, then the reference answers and preferences_changed / preferences_deleted reach their sockets', async () => {
    const socket = await world.open(alice.token);
    const prefs: Pref[] = [crt(alice, 'on'), { user_id: alice.id, category: 'advanced_settings', name: 'send_on_ctrl_enter', value: 'true' }];
    assert.deepEqual((await put(alice, 'me', prefs)).json, { status: 'OK' });
    const changed = await socket.event('preferences_changed');
    assert.deepEqual(parsed<Pref[]>(changed, 'preferences'), prefs);
    const all = await get(alice, '/api/v4/users/me/preferences');
    assertJson(all, 200);
    assert.deepEqual(all.json, [prefs[1], prefs[0]]);
    assert.deepEqual((await get(alice, `/api/v4/users/${alice.id}/preferences/display_settings`)).json, [prefs[0]]);
    assert.deepEqual((await get(alice, '/api/v4/users/me/preferences/display_settings/name/collapsed_reply_threads')).json, prefs[0]);
    assert.deepEqual((await put(alice, 'me', [crt(alice, 'off')])).json, { status: 'OK' });
    assert.equal((await get(alice, '/api/v4/users/me/preferences/display_settings/name/collapsed_reply_threads')).json.value, 'off');
    assertAppError(await get(alice, '/api/v4/users/me/preferences/nothing_here'), 404, 'api.preference.preferences_category.get.app_error');
    assertAppError(await get(alice, '/api/v4/users/me/preferences/display_settings/name/nope'), 400, 'app.preference.get.app_error');
    assert.deepEqual((await del(alice, 'me', [prefs[1]])).json, { status: 'OK' });
    const deleted = await socket.event('preferences_deleted');
    assert.deepEqual(parsed<Pref[]>(deleted, 'preferences'), [prefs[1]]);
    assert.deepEqual(((await get(alice, '/api/v4/users/me/preferences')).json as Pref[]).map((p) => p.name), ['collapsed_reply_threads']);
  });

  it('when the input is wrong or someone else\'s, then the reference\'s 400, 403 and 404, and nothing is saved', async () => {
    const base = { user_id: alice.id, category: 'display_settings', name: 'x', value: 'v' };
    assertAppError(await get(bob, `/api/v4/users/${alice.id}/preferences`), 403, 'api.context.permissions.app_error');
    assertAppError(await put(bob, alice.id, [base]), 403, 'api.context.permissions.app_error');
    assertAppError(await del(bob, alice.id, [base]), 403, 'api.context.permissions.app_error');
    assertAppError(await put(bob, 'me', [base]), 403, 'api.preference.update_preferences.set.app_error');
    assertAppError(await del(bob, 'me', [base]), 403, 'api.preference.delete_preferences.delete.app_error');
    const cases: [unknown, string][] = [
      [[{ ...base, category: '' }], 'model.preference.is_valid.category.app_error'],
      [[{ ...base, category: 'c'.repeat(33) }], 'model.preference.is_valid.category.app_error'],
      [[{ ...base, name: 'n'.repeat(33) }], 'model.preference.is_valid.name.app_error'],
      [[{ ...base, value: 'v'.repeat(20_001) }], 'model.preference.is_valid.value.app_error'],
      [[{ ...base, category: 'sidebar_settings', name: 'limit_visible_dms_gms', value: '41' }], 'model.preference.is_valid.limit_visible_dms_gms.app_error'],
      [[{ ...base, value: 5 }], 'api.context.invalid_body_param.app_error'],
      [{ user_id: alice.id }, 'api.context.invalid_body_param.app_error'],
      [[{ ...base, name: 'ok' }, { ...base, name: { $gt: '' } }], 'api.context.invalid_body_param.app_error'],
    ];
    for (const [body, id] of cases) assertAppError(await put(alice, 'me', body), 400, id);
    assertAppError(await raw(url(), 'PUT', '/api/v4/users/me/preferences', { token: alice.token, rawBody: '[{' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await get(alice, '/api/v4/users/me/preferences/bad-category'), 404, 'api.context.404.app_error');
    assert.ok(!((await get(alice, '/api/v4/users/me/preferences')).json as Pref[]).some((p) => p.name === 'x' || p.name === 'ok'));
    const theme = await put(alice, 'me', [{ user_id: alice.id, category: 'theme', name: '', value: '{"sidebarBg":"red","type":"Denim"}' }]);
    assertJson(theme, 200);
    assert.equal((await get(alice, '/api/v4/users/me/preferences/theme')).json[0].value, '{"sidebarBg":"#ffffff","type":"Denim"}');
    // As the reference's PreUpdate: a theme that is no JSON object is stored as null (its IsValid never sees it).
    assertJson(await put(alice, 'me', [{ user_id: alice.id, category: 'theme', name: 't2', value: '[1]' }]), 200);
    assert.equal((await get(alice, '/api/v4/users/me/preferences/theme/name/t2')).json.value, 'null');
  });

  it('when a post is flagged, then it must exist (400 preference.name) and be in a channel the caller reads (403 read_channel)', async () => {
    const secret = await newChannel(alice, world.team, 'P');
    const post = await postIn(alice, secret.id, 'private words');
    const flag = (who: Actor, postId: string) => put(who, 'me', [{ user_id: who.id, category: 'flagged_post', name: postId, value: 'true' }]);
    assertJson(await flag(alice, post.id), 200);
    assertAppError(await flag(bob, post.id), 403, 'api.context.permissions.app_error');
    assertAppError(await flag(bob, 'p'.repeat(26)), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await flag(bob, 'not-an-id'), 400, 'api.context.invalid_body_param.app_error');
    await alice.client.addToChannel(bob.id, secret.id);
    assertJson(await flag(bob, post.id), 200);
    assert.ok(((await get(bob, '/api/v4/users/me/preferences/flagged_post')).json as Pref[]).some((p) => p.name === post.id));
  });

  it('when CollapsedThreads is default_on and a user turned it off, then viewing a channel marks her threads read even from a collapsed-threads client', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'default_on' } });
    assertJson(await put(alice, 'me', [crt(alice, 'off')]), 200);
    assertJson(await put(bob, 'me', [crt(bob, 'on')]), 200);
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'root');
    await postIn(bob, channel.id, `ping @${alice.username}`, { root_id: root.id });
    const thread = () => raw(url(), 'GET', `/api/v4/users/me/teams/${world.team.id}/threads/${root.id}`, { token: alice.token });
    assert.equal((await thread()).json.unread_replies, 1);
    await eventually('default_on seen by posts', async () => {
      // Each try gives the view something unread in the channel (a view only marks channels that had unreads).
      await postIn(bob, channel.id, 'and again', { root_id: root.id });
      assertJson(await raw(url(), 'POST', '/api/v4/channels/members/me/view', { token: alice.token, body: { channel_id: channel.id, collapsed_threads_supported: true } }), 200);
      return (await thread()).json.unread_replies === 0 ? true : undefined;
    });
    assert.equal((await thread()).json.unread_mentions, 0);
  });

  it('when CollapsedThreads is default_off, then thread_updated reaches only the followers who turned collapsed threads on', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'default_off' } });
    assertJson(await put(alice, 'me', [crt(alice, 'on')]), 200);
    await del(bob, 'me', [crt(bob, 'on')]);
    const aliceSocket = await world.open(alice.token);
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'root 2');
    await eventually('default_off seen by posts', async () => {
      const reply = await postIn(bob, channel.id, 'reply', { root_id: root.id });
      return (await aliceSocket.event('thread_updated', (f) => parsed<{ id: string }>(f, 'thread').id === root.id, 3_000).catch(() => undefined)) ? reply : undefined;
    });
  });
});
