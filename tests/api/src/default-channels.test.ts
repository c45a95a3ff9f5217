import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Channel, ChannelMembership } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { createUserSession, ensureAdmin, uniqueName, type AdminSession } from './support/fixtures';
import { assertJson, raw, type RawResponse } from './support/http';
import { startTarget, type Target } from './support/target';

/** Channels are made from an event, after POST /teams answered: wait for them, but not forever. */
const WAIT_MS = 30_000;

async function eventually(what: string, attempt: () => Promise<RawResponse>, done: (response: RawResponse) => boolean): Promise<RawResponse> {
  const deadline = Date.now() + WAIT_MS;
  let last = await attempt();
  while (!done(last)) {
    assert.ok(Date.now() < deadline, `${what}: still ${last.status} ${last.text.slice(0, 200)} after ${WAIT_MS} ms`);
    await delay(50);
    last = await attempt();
  }
  return last;
}

describe('default team channels', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    target = await startTarget();
    admin = await ensureAdmin(target.url);
  });
  after(async () => {
    await target?.stop();
  });

  it('when a user creates a team, then town-square and off-topic are created and the creator is a member of both', async () => {
    const creator = await createUserSession(target.url, admin.client, 'dc');
    const created = await raw(target.url, 'POST', '/api/v4/teams', { token: creator.token, body: { name: uniqueName('dct'), display_name: 'Default Channels', type: 'O' } });
    assertJson(created, 201);
    const team = created.json as Team;

    const mine = await eventually(
      'the creator sees both default channels',
      () => raw(target.url, 'GET', `/api/v4/users/me/teams/${team.id}/channels`, { token: creator.token }),
      (r) => r.status === 200 && ['town-square', 'off-topic'].every((name) => (r.json as Channel[]).some((c) => c.name === name)),
    );
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

  it('when a user is added to a team, then they become a member of town-square and off-topic', async () => {
    const creator = await createUserSession(target.url, admin.client, 'dc');
    const joiner = await createUserSession(target.url, admin.client, 'dj');
    const team = (await raw(target.url, 'POST', '/api/v4/teams', { token: creator.token, body: { name: uniqueName('dct'), display_name: 'Joining', type: 'O' } })).json as Team;
    const added = await raw(target.url, 'POST', `/api/v4/teams/${team.id}/members`, { token: creator.token, body: { team_id: team.id, user_id: joiner.user.id } });
    assertJson(added, 201);

    const town = await eventually(
      'town-square exists',
      () => raw(target.url, 'GET', `/api/v4/teams/${team.id}/channels/name/town-square`, { token: creator.token }),
      (r) => r.status === 200,
    );
    const townId = (town.json as Channel).id;
    await eventually('the joiner is a member of town-square', () => raw(target.url, 'GET', `/api/v4/channels/${townId}/members/${joiner.user.id}`, { token: joiner.token }), (r) => r.status === 200);
    const theirs = await eventually(
      'the joiner sees both default channels',
      () => raw(target.url, 'GET', `/api/v4/users/me/teams/${team.id}/channels`, { token: joiner.token }),
      (r) => r.status === 200 && ['town-square', 'off-topic'].every((name) => (r.json as Channel[]).some((c) => c.name === name)),
    );
    assert.equal((theirs.json as Channel[]).find((c) => c.name === 'town-square')?.creator_id, creator.user.id, 'joined, not recreated');

    const posted = await raw(target.url, 'POST', '/api/v4/posts', { token: joiner.token, body: { channel_id: townId, message: 'hello town' } });
    assertJson(posted, 201);
  });
});
