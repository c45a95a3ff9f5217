import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld, type AdminWorld } from './support/admin-world';
import { assertJson, raw } from './support/http';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';

/**
 * The unread mentions a thread read recounts (`PUT .../threads/{id}/read/{timestamp}`), as the newest reference's
 * countThreadMentions: replies created at or after the timestamp, the reader's own replies included, and none in a group
 * channel (the reference's group branch looks for a direct channel's other user, who does not exist there).
 */
describe('thread read: unread mentions recounted as the newest reference', { timeout: 300_000 }, () => {
  let world: AdminWorld;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;

  const readAt = async (actor: Actor, rootId: string, timestamp: number): Promise<number> => {
    const res = await raw(world.target.url, 'PUT', `/api/v4/users/me/teams/${team.id}/threads/${rootId}/read/${timestamp}`, { token: actor.token });
    assertJson(res, 200);
    return res.json.unread_mentions as number;
  };
  const reply = (actor: Actor, root: Post, message: string): Promise<Post> => postIn(actor, root.channel_id, message, { root_id: root.id });

  before(async () => {
    world = await givenAdminWorld();
    team = await newTeam(world.admin);
    alice = await teamMember(world.target.url, world.admin, team, 'ra');
    bob = await teamMember(world.target.url, world.admin, team, 'rb');
    carol = await teamMember(world.target.url, world.admin, team, 'rc');
  });
  after(async () => {
    await world?.target.stop();
  });

  it('when a thread is read up to a reply\'s own time, then that reply and later ones naming the reader count, her own included', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const root = await postIn(alice, channel.id, 'root');
    const first = await reply(bob, root, `@${alice.username} first`);
    await reply(alice, root, `note to self @${alice.username}`);
    await reply(bob, root, 'nothing for anyone');
    assert.equal(await readAt(alice, root.id, first.create_at), 2, 'the reply at the timestamp and her own');
    assert.equal(await readAt(alice, root.id, first.create_at + 1_000_000), 0);
  });

  it('when the thread is in a group channel, then the recount finds no mention, even for a reply naming the reader', async () => {
    const created = await raw(world.target.url, 'POST', '/api/v4/channels/group', { token: alice.token, body: [alice.id, bob.id, carol.id] });
    assertJson(created, 201);
    const root = await postIn(alice, created.json.id as string, 'group root');
    await reply(bob, root, `@${alice.username} in the group`);
    assert.equal(await readAt(alice, root.id, 1), 0);
  });
});
