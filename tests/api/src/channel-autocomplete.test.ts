import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import { patchConfig, uniqueName, type AdminSession } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw } from './support/http';
import { newTeam, outsider, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

describe('channel search_archived, autocompletes and group search', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let otherTeam: Team;
  let alice: Actor;
  let bob: Actor;
  let stranger: Actor;
  let word: string;
  let openCh: Channel;
  let privAlice: Channel;
  let archivedOpen: Channel;
  let archivedPrivAlice: Channel;
  let archivedPrivBob: Channel;

  const ids = (response: { json: unknown }): string[] => (response.json as { id: string }[]).map((c) => c.id);
  const post = (who: Actor, path: string, body: unknown) => raw(target.url, 'POST', path, { token: who.token, body });
  const get = (who: Actor, path: string) => raw(target.url, 'GET', path, { token: who.token });

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    otherTeam = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'aa');
    bob = await teamMember(target.url, admin, team, 'ab');
    stranger = await outsider(target.url, admin, 'as');
    word = uniqueName('ac').replace(/[^a-z]/g, 'x');
    const make = (who: Actor, t: Team, suffix: string, type: 'O' | 'P') =>
      who.client.createChannel({ team_id: t.id, name: `${word}-${suffix}`, display_name: `${word} ${suffix}`, type } as never);
    openCh = await make(alice, team, 'open', 'O');
    privAlice = await make(alice, team, 'priv', 'P');
    archivedOpen = await make(alice, team, 'gone', 'O');
    archivedPrivAlice = await make(alice, team, 'gonepa', 'P');
    archivedPrivBob = await make(bob, team, 'gonepb', 'P');
    for (const c of [archivedOpen, archivedPrivAlice]) await alice.client.deleteChannel(c.id);
    await bob.client.deleteChannel(archivedPrivBob.id);
    // Another team's archived channel with the same word is never found through this team.
    await admin.client.addToTeam(otherTeam.id, alice.id);
    const elsewhere = await make(alice, otherTeam, 'else', 'O');
    await alice.client.deleteChannel(elsewhere.id);
  });
  after(async () => {
    await patchConfig(admin.client, { TeamSettings: { ExperimentalViewArchivedChannels: true } }).catch(() => undefined);
    await target?.stop();
  });

  it('when archived channels are searched, then archived public ones and archived private ones of the caller only; outsiders 404; a bad body 400', async () => {
    const path = `/api/v4/teams/${team.id}/channels/search_archived`;
    const byAlice = await post(alice, path, { term: word });
    assertJson(byAlice, 200);
    assert.deepEqual(ids(byAlice), [archivedOpen.id, archivedPrivAlice.id]);
    assert.deepEqual(ids(await post(bob, path, { term: word })), [archivedOpen.id, archivedPrivBob.id]);
    assert.deepEqual(ids(await post(alice, path, { term: `${word} gonepa` })), [archivedPrivAlice.id]);
    assert.deepEqual(ids(await post(alice, path, { term: 'nomatch-at-all' })), []);
    assertAppError(await post(stranger, path, { term: word }), 404, 'app.team.get_member.missing.app_error');
    for (const body of [{ term: { $gt: '' } }, null, [word], 'x']) assertAppError(await post(alice, path, body), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', path, { token: alice.token, rawBody: '{"term":' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await post(alice, '/api/v4/teams/not-an-id/channels/search_archived', { term: word }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a team is searched, then archived public channels come back only while ExperimentalViewArchivedChannels is on', async () => {
    const path = `/api/v4/teams/${team.id}/channels/search`;
    assert.deepEqual(ids(await post(bob, path, { term: word })).sort(), [openCh.id, archivedOpen.id].sort());
    await patchConfig(admin.client, { TeamSettings: { ExperimentalViewArchivedChannels: false } });
    try {
      await eventually('archived left out', async () => {
        const found = ids(await post(bob, path, { term: word }));
        return found.length === 1 ? found : undefined;
      });
      assert.deepEqual(ids(await post(bob, path, { term: word })), [openCh.id]);
    } finally {
      await patchConfig(admin.client, { TeamSettings: { ExperimentalViewArchivedChannels: true } });
    }
    await eventually('archived back', async () => (ids(await post(bob, path, { term: word })).length === 2 ? true : undefined));
    assertAppError(await post(bob, path, { term: 5 }), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when channels are autocompleted, then public and own private channels by name; no list_team_channels is 403', async () => {
    const path = `/api/v4/teams/${team.id}/channels/autocomplete?name=${encodeURIComponent(word)}`;
    const byAlice = await get(alice, path);
    assertJson(byAlice, 200);
    assert.deepEqual(ids(byAlice).sort(), [openCh.id, privAlice.id, archivedOpen.id, archivedPrivAlice.id].sort());
    const byBob = ids(await get(bob, path));
    assert.ok(byBob.includes(openCh.id) && byBob.includes(archivedPrivBob.id));
    assert.ok(!byBob.includes(privAlice.id) && !byBob.includes(archivedPrivAlice.id));
    assert.deepEqual(ids(await get(alice, `/api/v4/teams/${team.id}/channels/autocomplete?name=${word}-op`)), [openCh.id]);
    assertAppError(await get(stranger, path), 403, 'api.context.permissions.app_error');
    assert.deepEqual(ids(await get(alice, `/api/v4/teams/${team.id}/channels/autocomplete?name=${'%25'.repeat(40)}`)), []);
  });

  it('when channels are autocompleted for search, then only the caller\'s own channels, their groups and their DMs by the other username', async () => {
    const path = (name: string) => `/api/v4/teams/${team.id}/channels/search_autocomplete?name=${encodeURIComponent(name)}`;
    const byAlice = await get(alice, path(word));
    assertJson(byAlice, 200);
    assert.deepEqual(ids(byAlice).sort(), [openCh.id, privAlice.id, archivedOpen.id, archivedPrivAlice.id].sort());
    assert.deepEqual(ids(await get(bob, path(word))).sort(), [archivedPrivBob.id]);
    const dm = await alice.client.createDirectChannel([alice.id, bob.id]);
    const dms = (await get(alice, path(bob.username))).json as Channel[];
    const shown = dms.find((c) => c.id === dm.id);
    assert.equal(shown?.display_name, bob.username);
    assert.ok(!ids(await get(stranger, path(bob.username))).includes(dm.id));
  });

  it('when group messages are searched, then the caller\'s groups whose usernames contain every word; "" is []', async () => {
    const carol = await outsider(target.url, admin, 'ag');
    const gm = await raw(target.url, 'POST', '/api/v4/channels/group', { token: alice.token, body: [bob.id, carol.id] });
    assertJson(gm, 201);
    const gmId = (gm.json as Channel).id;
    const search = (who: Actor, term: unknown) => post(who, '/api/v4/channels/group/search', { term });
    const found = await search(alice, `${bob.username.slice(0, 5)} ${carol.username}`);
    assertJson(found, 200);
    assert.deepEqual(ids(found), [gmId]);
    assert.deepEqual(ids(await search(carol, carol.username.toUpperCase())), [gmId]);
    assert.deepEqual(ids(await search(alice, `${bob.username} nobody-matches`)), []);
    assert.deepEqual(ids(await search(stranger, carol.username)), []);
    assert.deepEqual((await search(alice, '')).json, []);
    assertAppError(await post(alice, '/api/v4/channels/group/search', [1]), 400, 'api.context.invalid_body_param.app_error');
  });
});
