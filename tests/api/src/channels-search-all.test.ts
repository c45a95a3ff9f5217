import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { uniqueName } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface WireChannel {
  id: string;
  display_name: string;
  type: string;
  team_id: string;
  delete_at: number;
  team_name: string;
  team_display_name: string;
  team_update_at: number;
}

/** `POST /channels/search` (mattermost-wire-3.md §2.6): the system console's channel search across teams. */
describe('channel search across teams (system console)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let teams: Team[];
  let alice: Actor;
  let tag: string;
  let open1: Channel;
  let private1: Channel;
  let open2: Channel;
  let archived2: Channel;

  const search = (token: string, body: unknown, query = '') => raw(target.url, 'POST', `/api/v4/channels/search${query}`, { token, body });
  const ids = (response: { json: unknown }): string[] => (response.json as WireChannel[]).map((c) => c.id);

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    teams = [await newTeam(admin), await newTeam(admin)];
    alice = await teamMember(target.url, admin, teams[0] as Team, 'ca');
    tag = uniqueName('tg').replace(/[^a-z]/g, 'x');
    const make = (team: Team, n: number, type: 'O' | 'P', by: Actor | AdminSession = admin) =>
      by.client.createChannel({ team_id: team.id, name: uniqueName('cs'), display_name: `${tag} ${n}`, type, purpose: n === 4 ? 'archived one' : '' });
    open1 = await make(teams[0] as Team, 1, 'O', alice);
    private1 = await make(teams[0] as Team, 2, 'P');
    open2 = await make(teams[1] as Team, 3, 'O');
    archived2 = await make(teams[1] as Team, 4, 'O');
    await admin.client.deleteChannel(archived2.id);
  });
  after(async () => {
    await target?.stop();
  });

  it('when an admin searches, then public and private channels of every team come by display name with their team; archived ones only when asked', async () => {
    const all = await search(admin.token, { term: tag });
    assertJson(all, 200);
    assert.deepEqual(ids(all), [open1.id, private1.id, open2.id]);
    const first = (all.json as WireChannel[])[0] as WireChannel;
    assert.equal(first.team_name, teams[0]?.name);
    assert.equal(first.team_display_name, teams[0]?.display_name);
    assert.equal(typeof first.team_update_at, 'number');
    assert.deepEqual(ids(await search(admin.token, { term: tag, public: true })), [open1.id, open2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag, private: true })), [private1.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag, public: true, private: true })), [open1.id, private1.id, open2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag, deleted: true })), [archived2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag, include_deleted: true })), [open1.id, private1.id, open2.id, archived2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag }, '?include_deleted=true')), [open1.id, private1.id, open2.id, archived2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: tag, team_ids: [teams[1]?.id] })), [open2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: 'archived', include_deleted: true, team_ids: [teams[1]?.id] })), [archived2.id], 'purpose words match');
    assert.deepEqual(ids(await search(admin.token, { term: open2.id, include_search_by_id: true })), [open2.id]);
    assert.deepEqual(ids(await search(admin.token, { term: `${tag}zzz` })), []);
    assert.deepEqual(ids(await search(admin.token, { term: tag, group_constrained: true })), []);
  });

  it('when page and per_page are both given, then {channels, total_count} pages through the matches', async () => {
    const page0 = await search(admin.token, { term: tag, page: 0, per_page: 2 });
    assertJson(page0, 200);
    const body0 = page0.json as { channels: WireChannel[]; total_count: number };
    assert.deepEqual(body0.channels.map((c) => c.id), [open1.id, private1.id]);
    assert.equal(body0.total_count, 3);
    const body1 = (await search(admin.token, { term: tag, page: 1, per_page: 2 })).json as { channels: WireChannel[]; total_count: number };
    assert.deepEqual(body1.channels.map((c) => c.id), [open2.id]);
    assert.equal(body1.total_count, 3);
    assert.deepEqual(ids(await search(admin.token, { term: tag, per_page: 1 })), [open1.id], 'per_page alone limits, answers an array');
  });

  it('when a non-admin searches, then 403; with system_console=false, only their own channels of every team', async () => {
    assertAppError(await search(alice.token, { term: tag }), 403, 'api.context.permissions.app_error');
    const own = await search(alice.token, { term: tag }, '?system_console=false');
    assertJson(own, 200);
    assert.deepEqual(ids(own), [open1.id], 'not the private channel they are not in, not the other team');
    assertAppError(await search(alice.token, { term: tag }, '?system_console=maybe'), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when the body is bad, then 400 invalid_body_param channel_search (as the reference SetInvalidParamWithErr), never a 5xx', async () => {
    for (const body of ['{', 'null', '[]', '"x"', JSON.stringify({ term: 5 }), JSON.stringify({ public: 'yes' }), JSON.stringify({ page: -1, per_page: 10 }), JSON.stringify({ team_ids: [{ $ne: '' }] }), JSON.stringify({ term: { $regex: '.*' } })]) {
      const response = await raw(target.url, 'POST', '/api/v4/channels/search', { token: admin.token, rawBody: body, headers: { 'content-type': 'application/json' } });
      assertAppError(response, 400, 'api.context.invalid_body_param.app_error');
    }
    const long = await search(admin.token, { term: 'x'.repeat(10_000) });
    assertJson(long, 200);
    assert.deepEqual(long.json, []);
  });
});
