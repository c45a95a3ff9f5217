import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel, ChannelMembership } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { createUserSession, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertJson, raw } from './support/http';
import type { Target } from './support/target';

/**
 * The reference creates town-square and off-topic inside `POST /teams` (and joins a new member inside
 * `POST /teams/{id}/members`): every read below is the very next request after the answer, with no wait.
 */
describe('default team channels', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  it('when a user creates a team, then town-square and off-topic exist and the creator is a member of both as soon as POST /teams answers', async () => {
    const creator = await createUserSession(target.url, admin.client, 'dc');
    const created = await raw(target.url, 'POST', '/api/v4/teams', { token: creator.token, body: { name: uniqueName('dct'), display_name: 'Default Channels', type: 'O' } });
    assertJson(created, 201);
    const team = created.json as Team;

    const mine = await raw(target.url, 'GET', `/api/v4/users/me/teams/${team.id}/channels`, { token: creator.token });
    assertJson(mine, 200);
    assert.deepEqual((mine.json as Channel[]).map((c) => c.name).sort(), ['off-topic', 'town-square'], 'read-your-writes: listed right after POST /teams');
    const byName = new Map((mine.json as Channel[]).map((c) => [c.name, c]));
    for (const [name, displayName] of [['town-square', 'Town Square'], ['off-topic', 'Off-Topic']] as const) {
      const channel = byName.get(name);
      assert.equal(channel?.display_name, displayName);
      assert.equal(channel?.type, 'O');
      assert.equal(channel?.team_id, team.id);
      assert.equal(channel?.creator_id, creator.user.id);
    }

    const town = await raw(target.url, 'GET', `/api/v4/teams/${team.id}/channels/name/town-square`, { token: creator.token });
    assertJson(town, 200);
    assert.equal((town.json as Channel).id, byName.get('town-square')?.id);
    const member = await raw(target.url, 'GET', `/api/v4/channels/${(town.json as Channel).id}/members/${creator.user.id}`, { token: creator.token });
    assertJson(member, 200);
    assert.equal((member.json as ChannelMembership).user_id, creator.user.id);

    const listed = await raw(target.url, 'GET', `/api/v4/teams/${team.id}/channels`, { token: creator.token });
    assertJson(listed, 200);
    assert.deepEqual((listed.json as Channel[]).map((c) => c.name).filter((n) => n === 'town-square' || n === 'off-topic').sort(), ['off-topic', 'town-square'], 'exactly one of each');
  });

  it('when a user is added to a team, then they are a member of town-square and off-topic as soon as the add answers', async () => {
    const creator = await createUserSession(target.url, admin.client, 'dc');
    const joiner = await createUserSession(target.url, admin.client, 'dj');
    const team = (await raw(target.url, 'POST', '/api/v4/teams', { token: creator.token, body: { name: uniqueName('dct'), display_name: 'Joining', type: 'O' } })).json as Team;
    const added = await raw(target.url, 'POST', `/api/v4/teams/${team.id}/members`, { token: creator.token, body: { team_id: team.id, user_id: joiner.user.id } });
    assertJson(added, 201);

    const theirs = await raw(target.url, 'GET', `/api/v4/users/me/teams/${team.id}/channels`, { token: joiner.token });
    assertJson(theirs, 200);
    assert.deepEqual((theirs.json as Channel[]).map((c) => c.name).sort(), ['off-topic', 'town-square'], 'read-your-writes: listed right after the add');
    const townId = (theirs.json as Channel[]).find((c) => c.name === 'town-square')?.id ?? '';
    assertJson(await raw(target.url, 'GET', `/api/v4/channels/${townId}/members/${joiner.user.id}`, { token: joiner.token }), 200);
    assert.equal((theirs.json as Channel[]).find((c) => c.name === 'town-square')?.creator_id, creator.user.id, 'joined, not recreated');

    const posted = await raw(target.url, 'POST', '/api/v4/posts', { token: joiner.token, body: { channel_id: townId, message: 'hello town' } });
    assertJson(posted, 201);
  });
});
