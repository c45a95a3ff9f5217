import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld, type AdminWorld } from './support/admin-world';
import { WAIT_MS } from './support/eventually';
import { createBot, issueToken, patchConfig } from './support/fixtures';
import { assertAppError, assertJson, raw, sleep } from './support/http';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';

/**
 * `PUT /api/v4/users/{user_id}/patch` (the reference's UserPatch), the route clients and bots change their notify props
 * with: the map is replaced whole, only the user themself or an admin may, bad input gets the reference's ids, and the
 * mention reading sees new mention keys on the next posts (no waiting out a settings cache).
 */
describe('user patch: notify props and profile fields', { timeout: 300_000 }, () => {
  let world: AdminWorld;
  let team: Team;
  let alice: Actor;
  let kim: Actor;

  const patch = (token: string, userId: string, body: unknown) => raw(world.target.url, 'PUT', `/api/v4/users/${userId}/patch`, { token, body });
  const mentionCount = async (actor: Actor, channelId: string): Promise<number> => {
    const response = await raw(world.target.url, 'GET', `/api/v4/users/${actor.id}/channels/${channelId}/unread`, { token: actor.token });
    assertJson(response, 200);
    return response.json.mention_count as number;
  };

  before(async () => {
    world = await givenAdminWorld();
    team = await newTeam(world.admin);
    alice = await teamMember(world.target.url, world.admin, team, 'pa');
    kim = await teamMember(world.target.url, world.admin, team, 'pk');
  });
  after(async () => {
    await world?.target.stop();
  });

  it('when a user adds a mention key through their notify props, then the answer carries the replaced map and the next posts with the key count for them', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(kim.id, channel.id);
    await postIn(alice, channel.id, 'the rollout failed');
    assert.equal(await mentionCount(kim, channel.id), 0, 'no key yet (and the defaults are now read once)');

    const res = await patch(kim.token, 'me', { notify_props: { mention_keys: 'Rollout,,@ops', channel: 'true', desktop: 'all' } });
    assertJson(res, 200);
    assert.equal(res.json.id, kim.id);
    assert.deepEqual(res.json.notify_props, { mention_keys: 'rollout,@ops', channel: 'true', desktop: 'all' });
    const me = await raw(world.target.url, 'GET', '/api/v4/users/me', { token: kim.token });
    assert.deepEqual(me.json.notify_props, res.json.notify_props);

    // The change reaches the mention reading through users.events: bounded wait, one post per try, stops at the first count.
    const deadline = Date.now() + WAIT_MS;
    let count = 0;
    while (count === 0 && Date.now() < deadline) {
      await postIn(alice, channel.id, 'the ROLLOUT failed again');
      count = await mentionCount(kim, channel.id);
      if (count === 0) await sleep(200);
    }
    assert.equal(count, 1, 'a post with the new key counts for kim');
  });

  it('when someone else patches a user, then 403 for a plain user, 200 for an admin; a bot: its manager only, not its own token', async () => {
    const other = await teamMember(world.target.url, world.admin, team, 'po');
    assertAppError(await patch(other.token, kim.id, { notify_props: { channel: 'false' } }), 403, 'api.context.permissions.app_error');
    const byAdmin = await patch(world.admin.token, kim.id, { nickname: 'kimmy' });
    assertJson(byAdmin, 200);
    assert.equal(byAdmin.json.nickname, 'kimmy');
    await patchConfig(world.admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
    const bot = await createBot(world.admin.client, 'pp');
    assertAppError(await patch(alice.token, bot.user_id, { nickname: 'mine' }), 403, 'api.context.permissions.app_error');
    const { token } = await issueToken(world.admin.client, bot.user_id, 'patch suite');
    assertAppError(await patch(token, 'me', { nickname: 'self' }), 403, 'api.context.permissions.app_error');
    const managed = await patch(world.admin.token, bot.user_id, { notify_props: { mention_keys: 'alerts' } });
    assertJson(managed, 200);
    assert.deepEqual(managed.json.notify_props, { mention_keys: 'alerts' });
  });

  it('when the patch is malformed or invalid, then the reference ids, and the user is unchanged', async () => {
    assertAppError(await patch(alice.token, 'me', { notify_props: { channel: true } }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await patch(alice.token, 'me', { username: 'all' }), 400, 'model.user.is_valid.username.app_error');
    assertAppError(await patch(alice.token, 'me', { first_name: 'f'.repeat(65) }), 400, 'model.user.is_valid.first_name.app_error');
    assertAppError(await patch(alice.token, 'me', { username: kim.username }), 400, 'app.user.save.username_exists.app_error');
    assertAppError(await patch(alice.token, 'me', { email: 'elsewhere@example.com' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await patch(world.admin.token, 'n'.repeat(26), { nickname: 'x' }), 400, 'api.context.invalid_body_param.app_error');
    const me = await raw(world.target.url, 'GET', '/api/v4/users/me', { token: alice.token });
    assert.equal(me.json.username, alice.username);
    assert.equal(me.json.first_name, '');
  });

  it('when a client sends back a whole User (PUT /users/{id}) with new notify props, then they replace the stored ones and roles stay', async () => {
    const me = await raw(world.target.url, 'GET', '/api/v4/users/me', { token: alice.token });
    assertJson(me, 200);
    const body = { ...me.json, notify_props: { mention_keys: 'Standup', channel: 'true' }, roles: 'system_admin system_user' };
    const res = await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}`, { token: alice.token, body });
    assertJson(res, 200);
    assert.deepEqual(res.json.notify_props, { mention_keys: 'standup', channel: 'true' });
    assert.equal(res.json.roles, 'system_user');
    assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${alice.id}`, { token: alice.token, body: { ...me.json, id: kim.id } }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(world.target.url, 'PUT', `/api/v4/users/${kim.id}`, { token: alice.token, body: { ...me.json, id: kim.id } }), 403, 'api.context.permissions.app_error');
  });
});
