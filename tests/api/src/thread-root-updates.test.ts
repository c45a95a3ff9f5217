import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld } from './support/admin-world';
import type { AdminSession } from './support/fixtures';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import { sleep } from './support/http';

describe('a reply bumps its root', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'tr');
    bob = await teamMember(target.url, admin, team, 'ts');
  });
  after(async () => {
    await target?.stop();
  });

  it('when a reply is posted, then the root update_at becomes the reply create_at (edit_at unchanged) and ?since= lists the root', async () => {
    const channelId = (await newChannel(alice, team)).id;
    await bob.client.addToChannel(bob.id, channelId);
    const root = await postIn(alice, channelId, 'root');
    await sleep(5);
    const sinceBefore = Date.now();
    const reply = await postIn(bob, channelId, 'reply', { root_id: root.id });
    const read = await alice.client.getPost(root.id);
    assert.equal(read.update_at, reply.create_at);
    assert.ok(read.update_at > root.update_at);
    assert.equal(read.edit_at, 0);
    const since = await alice.client.getPostsSince(channelId, sinceBefore - 1);
    assert.ok(since.order.includes(root.id), 'the root changed since');
    assert.ok(since.order.includes(reply.id));
  });
});
