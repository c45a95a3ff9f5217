import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel, ChannelMembership } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import { uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { asActor, newChannel, newTeam, outsider, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;
const PERMISSIONS = 'api.context.permissions.app_error';
/** Every team gets town-square and off-topic (created asynchronously): tests count only their own channels. */
const notDefault = (channel: Pick<Channel, 'name'>): boolean => channel.name !== 'town-square' && channel.name !== 'off-topic';

describe('channels', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'alice');
    bob = await teamMember(target.url, admin, team, 'bob');
  });
  after(async () => {
    await target?.stop();
  });

  it('when a team member creates an open channel, then 201 with the Channel, and the creator is a channel admin member', async () => {
    const name = uniqueName('open');
    const response = await raw(target.url, 'POST', '/api/v4/channels', { token: alice.token, body: { team_id: team.id, name, display_name: 'Open One', type: 'O', purpose: 'p', header: 'h' } });
    assertJson(response, 201);
    const channel = response.json as Channel;
    assert.match(channel.id, ID);
    assert.equal(channel.name, name);
    assert.equal(channel.type, 'O');
    assert.equal(channel.team_id, team.id);
    assert.equal(channel.display_name, 'Open One');
    assert.equal(channel.creator_id, alice.id);
    assert.equal(channel.delete_at, 0);
    assert.equal('team_name' in channel, false);
    const member = await alice.client.getChannelMember(channel.id, alice.id);
    assert.deepEqual(member.roles.split(' ').sort(), ['channel_admin', 'channel_user']);
  });

  it('when a private channel is created, then it is type P and only members can read it (404 by name, 403 by id)', async () => {
    const channel = await newChannel(alice, team, 'P');
    assert.equal(channel.type, 'P');
    assert.equal((await alice.client.getChannel(channel.id)).id, channel.id);
    await expectClientError(bob.client.getChannel(channel.id), 403, PERMISSIONS);
    await expectClientError(bob.client.getChannelByName(team.id, channel.name), 404, 'app.channel.get_by_name.missing.app_error');
  });

  it('when a channel is read by id and by team + name, then the same channel comes back', async () => {
    const channel = await newChannel(alice, team);
    assert.deepEqual(await bob.client.getChannel(channel.id), channel);
    assert.deepEqual(await bob.client.getChannelByName(team.id, channel.name), channel);
    const missing = await raw(target.url, 'GET', `/api/v4/teams/${team.id}/channels/name/nosuchchannel`, { token: bob.token });
    assertAppError(missing, 404, 'app.channel.get_by_name.missing.app_error');
  });

  it('when the name is taken in the team, then 400 store.sql_channel.save_channel.exists.app_error', async () => {
    const channel = await newChannel(alice, team);
    await expectClientError(bob.client.createChannel({ team_id: team.id, name: channel.name, display_name: 'again', type: 'O' }), 400, 'store.sql_channel.save_channel.exists.app_error');
  });

  it('when the channel name or type is invalid, then 400 with the model error id', async () => {
    const bad = async (body: Record<string, unknown>, id: string) => assertAppError(await raw(target.url, 'POST', '/api/v4/channels', { token: alice.token, body: { team_id: team.id, display_name: 'x', type: 'O', name: uniqueName('n'), ...body } }), 400, id);
    await bad({ name: 'Has Spaces' }, 'model.channel.is_valid.name.app_error');
    await bad({ name: `${'a'.repeat(26)}__${'b'.repeat(26)}` }, 'model.channel.is_valid.name.app_error');
    await bad({ type: 'D' }, 'api.channel.create_channel.direct_channel.app_error');
    await bad({ type: 'X' }, 'model.channel.is_valid.type.app_error');
    await bad({ display_name: 'd'.repeat(65) }, 'model.channel.is_valid.display_name.app_error');
    await bad({ team_id: 'not-an-id' }, 'api.context.invalid_body_param.app_error');
    await bad({ name: 42 }, 'api.context.invalid_body_param.app_error');
  });

  it('when a user outside the team creates a channel there, then 403', async () => {
    const stranger = await outsider(target.url, admin);
    await expectClientError(stranger.client.createChannel({ team_id: team.id, name: uniqueName('x'), display_name: 'x', type: 'O' }), 403, PERMISSIONS);
  });

  it('when two users open a direct channel, then 201 with type D named <smaller>__<larger>, and asking again returns the same channel', async () => {
    const response = await raw(target.url, 'POST', '/api/v4/channels/direct', { token: alice.token, body: [alice.id, bob.id] });
    assertJson(response, 201);
    const dm = response.json as Channel;
    assert.equal(dm.type, 'D');
    assert.equal(dm.team_id, '');
    assert.equal(dm.display_name, '');
    assert.equal(dm.name, [alice.id, bob.id].sort().join('__'));
    const again = await bob.client.createDirectChannel([bob.id, alice.id]);
    assert.equal(again.id, dm.id);
    const members = await alice.client.getChannelMembers(dm.id);
    assert.deepEqual(members.map((m) => m.user_id).sort(), [alice.id, bob.id].sort());
  });

  it('when a user opens a direct channel with themselves, then the self-DM <id>__<id> with one member', async () => {
    const dm = await alice.client.createDirectChannel([alice.id, alice.id]);
    assert.equal(dm.name, `${alice.id}__${alice.id}`);
    assert.equal((await alice.client.getChannelMembers(dm.id)).length, 1);
  });

  it('when the direct channel body is not two ids, or names others only, then 400 user_ids / 403', async () => {
    assertAppError(await raw(target.url, 'POST', '/api/v4/channels/direct', { token: alice.token, body: [alice.id] }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/channels/direct', { token: alice.token, body: { user_ids: [alice.id, bob.id] } }), 400, 'api.context.invalid_body_param.app_error');
    const carol = await teamMember(target.url, admin, team, 'carol');
    await expectClientError(alice.client.createDirectChannel([bob.id, carol.id]), 403, PERMISSIONS);
  });

  it('when members are added, listed and removed, then the list follows; self-join of an open channel is allowed', async () => {
    const channel = await newChannel(alice, team);
    const joined = await bob.client.addToChannel(bob.id, channel.id);
    assert.equal(joined.user_id, bob.id);
    assert.equal(joined.channel_id, channel.id);
    assert.equal(joined.roles, 'channel_user');
    const carol = await teamMember(target.url, admin, team, 'carol');
    const added: ChannelMembership = await alice.client.addToChannel(carol.id, channel.id);
    assert.equal(added.user_id, carol.id);
    let members = await alice.client.getChannelMembers(channel.id);
    assert.deepEqual(members.map((m) => m.user_id).sort(), [alice.id, bob.id, carol.id].sort());
    assert.deepEqual(await alice.client.removeFromChannel(carol.id, channel.id), { status: 'OK' });
    await bob.client.removeFromChannel(bob.id, channel.id);
    members = await alice.client.getChannelMembers(channel.id);
    assert.deepEqual(members.map((m) => m.user_id), [alice.id]);
    await expectClientError(alice.client.getChannelMember(channel.id, bob.id), 404, 'app.channel.get_member.missing.app_error');
  });

  it('when someone outside the team is added to a channel, then 403 and they are not a member', async () => {
    const channel = await newChannel(alice, team);
    const stranger = await outsider(target.url, admin);
    const response = await raw(target.url, 'POST', `/api/v4/channels/${channel.id}/members`, { token: alice.token, body: { user_id: stranger.id } });
    assertAppError(response, 403, 'api.channel.add_user.to.channel.failed.deleted.app_error');
    await expectClientError(alice.client.getChannelMember(channel.id, stranger.id), 404, 'app.channel.get_member.missing.app_error');
  });

  it('when a non-member adds someone to a private channel, then 403; adding to a DM is 400', async () => {
    const channel = await newChannel(alice, team, 'P');
    await expectClientError(bob.client.addToChannel(bob.id, channel.id), 403, PERMISSIONS);
    const dm = await alice.client.createDirectChannel([alice.id, bob.id]);
    const carol = await teamMember(target.url, admin, team, 'carol');
    await expectClientError(alice.client.addToChannel(carol.id, dm.id), 400, 'api.channel.add_user_to_channel.type.app_error');
  });

  it('when the team channel list is read, then open unarchived channels only, paged', async () => {
    const ownTeam = await newTeam(admin);
    const dave = asActor(admin);
    const open1 = await newChannel(dave, ownTeam);
    const open2 = await newChannel(dave, ownTeam);
    await newChannel(dave, ownTeam, 'P');
    const archived = await newChannel(dave, ownTeam);
    await admin.client.deleteChannel(archived.id);
    const all = (await admin.client.getChannels(ownTeam.id, 0, 100)).filter(notDefault);
    assert.deepEqual(all.map((c) => c.id).sort(), [open1.id, open2.id].sort());
    assert.equal((await admin.client.getChannels(ownTeam.id, 1, 1)).length, 1);
    await expectClientError((await outsider(target.url, admin)).client.getChannels(ownTeam.id), 403, PERMISSIONS);
  });

  it('when a channel is archived, then it is still readable by id, hidden by name unless include_deleted', async () => {
    const channel = await newChannel(alice, team);
    assert.deepEqual(await alice.client.deleteChannel(channel.id), { status: 'OK' });
    const read = await alice.client.getChannel(channel.id);
    assert.ok(read.delete_at > 0);
    await expectClientError(alice.client.getChannelByName(team.id, channel.name), 404, 'app.channel.get_by_name.missing.app_error');
    assert.equal((await alice.client.getChannelByName(team.id, channel.name, true)).id, channel.id);
  });

  it('when URL ids are invalid or the channel is unknown, then 400 invalid_url_param / 404', async () => {
    assertAppError(await raw(target.url, 'GET', '/api/v4/channels/nope', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', `/api/v4/channels/${'a'.repeat(26)}`, { token: alice.token }), 404, 'app.channel.get.existing.app_error');
    assertAppError(await raw(target.url, 'GET', `/api/v4/channels/${'a'.repeat(26)}`), 401, 'api.context.session_expired.app_error');
  });

  it('when a user lists their channels of a team with the official client, then their channels there and their DMs, with memberships', async () => {
    const ownTeam = await newTeam(admin);
    const erin = await teamMember(target.url, admin, ownTeam, 'erin');
    const mine = await newChannel(erin, ownTeam);
    await newChannel(asActor(admin), ownTeam);
    const dm = await erin.client.createDirectChannel([erin.id, alice.id]);
    const channels = (await erin.client.getMyChannels(ownTeam.id)).filter(notDefault);
    assert.deepEqual(channels.map((c) => c.id).sort(), [mine.id, dm.id].sort());
    const allMembers = await erin.client.getMyChannelMembers(ownTeam.id);
    // Read after the members: a default-channel membership above is surely listed here (they only grow).
    const defaultIds = new Set((await erin.client.getMyChannels(ownTeam.id)).filter((c) => !notDefault(c)).map((c) => c.id));
    const members = allMembers.filter((m) => !defaultIds.has(m.channel_id));
    assert.deepEqual(members.map((m) => m.channel_id).sort(), [mine.id, dm.id].sort());
    assertAppError(await raw(target.url, 'GET', `/api/v4/users/${erin.id}/teams/${ownTeam.id}/channels`, { token: alice.token }), 403, PERMISSIONS);
  });

  it('when a channel is read by team name and channel name, then the same channel', async () => {
    const channel = await newChannel(alice, team);
    assert.equal((await bob.client.getChannelByNameAndTeamName(team.name, channel.name)).id, channel.id);
    await expectClientError(bob.client.getChannelByNameAndTeamName('nosuchteamhere', channel.name), 404, 'app.team.get_by_name.missing.app_error');
    await expectClientError(bob.client.getChannelByName('t'.repeat(26), channel.name), 404, 'app.channel.get_by_name.missing.app_error');
  });
});
