import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reaction } from '@mattermost/types/reactions';
import type { Team } from '@mattermost/types/teams';
import { expectClientError } from './support/client';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** `has_reactions` is omitempty on the wire and not declared by @mattermost/types 11.9. */
const hasReactions = (post: unknown): boolean => (post as { has_reactions?: boolean }).has_reactions ?? false;

describe('reactions', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let channelId: string;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'ra');
    bob = await teamMember(target.url, admin, team, 'rb');
    channelId = (await newChannel(alice, team)).id;
    await bob.client.addToChannel(bob.id, channelId);
  });
  after(async () => {
    await target?.stop();
  });

  it('when a member reacts, then 200 with the Reaction, the post has_reactions, and the list shows it', async () => {
    const post = await postIn(alice, channelId, 'react to me');
    assert.equal(hasReactions(post), false);
    const response = await raw(target.url, 'POST', '/api/v4/reactions', { token: bob.token, body: { user_id: bob.id, post_id: post.id, emoji_name: 'thumbsup' } });
    assertJson(response, 200);
    const reaction = response.json as Reaction;
    assert.equal(reaction.user_id, bob.id);
    assert.equal(reaction.post_id, post.id);
    assert.equal(reaction.emoji_name, 'thumbsup');
    assert.ok(reaction.create_at > 0);
    assert.equal(hasReactions(await alice.client.getPost(post.id)), true);
    await alice.client.addReaction(alice.id, post.id, 'smile');
    const list = await alice.client.getReactionsForPost(post.id);
    assert.deepEqual(list.map((r) => `${r.user_id}:${r.emoji_name}`).sort(), [`${bob.id}:thumbsup`, `${alice.id}:smile`].sort());
  });

  it('when the same reaction is added twice, then it is stored once', async () => {
    const post = await postIn(alice, channelId);
    await bob.client.addReaction(bob.id, post.id, 'tada');
    await bob.client.addReaction(bob.id, post.id, 'tada');
    assert.equal((await bob.client.getReactionsForPost(post.id)).length, 1);
  });

  it('when reactions are removed, then the list shrinks and has_reactions clears with the last one', async () => {
    const post = await postIn(alice, channelId);
    await bob.client.addReaction(bob.id, post.id, 'a1');
    await alice.client.addReaction(alice.id, post.id, 'b2');
    assert.deepEqual(await bob.client.removeReaction(bob.id, post.id, 'a1'), { status: 'OK' });
    assert.equal(hasReactions(await alice.client.getPost(post.id)), true);
    const response = await raw(target.url, 'DELETE', `/api/v4/users/me/posts/${post.id}/reactions/b2`, { token: alice.token });
    assertJson(response, 200);
    assert.deepEqual(await alice.client.getReactionsForPost(post.id), []);
    assert.equal(hasReactions(await alice.client.getPost(post.id)), false);
  });

  it('when a user reacts or unreacts for someone else, then 403', async () => {
    const post = await postIn(alice, channelId);
    await expectClientError(bob.client.addReaction(alice.id, post.id, 'x'), 403, 'api.reaction.save_reaction.user_id.app_error');
    await alice.client.addReaction(alice.id, post.id, 'keep');
    await expectClientError(bob.client.removeReaction(alice.id, post.id, 'keep'), 403, 'api.context.permissions.app_error');
    assert.equal((await alice.client.getReactionsForPost(post.id)).length, 1);
  });

  it('when the emoji name or ids are invalid, then 400 with the reaction error ids', async () => {
    const post = await postIn(alice, channelId);
    const add = (body: unknown) => raw(target.url, 'POST', '/api/v4/reactions', { token: bob.token, body });
    assertAppError(await add({ user_id: bob.id, post_id: post.id, emoji_name: '' }), 400, 'api.reaction.save_reaction.invalid.app_error');
    assertAppError(await add({ user_id: bob.id, post_id: post.id, emoji_name: 'e'.repeat(65) }), 400, 'api.reaction.save_reaction.invalid.app_error');
    assertAppError(await add({ user_id: bob.id, post_id: 'short', emoji_name: 'ok' }), 400, 'api.reaction.save_reaction.invalid.app_error');
    assertAppError(await add({ user_id: bob.id, post_id: post.id, emoji_name: 'no spaces' }), 400, 'model.reaction.is_valid.emoji_name.app_error');
    assertAppError(await add({ user_id: bob.id, post_id: post.id, emoji_name: 7 }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/posts/bad/reactions', { token: bob.token }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when a non-member reacts in a private channel, then 403; in an archived channel, then 403 archived_channel', async () => {
    const privateChannel = await newChannel(alice, team, 'P');
    const hidden = await postIn(alice, privateChannel.id);
    await expectClientError(bob.client.addReaction(bob.id, hidden.id, 'eyes'), 403, 'api.context.permissions.app_error');
    await expectClientError(bob.client.getReactionsForPost(hidden.id), 403, 'api.context.permissions.app_error');
    const archived = await newChannel(alice, team);
    const old = await postIn(alice, archived.id);
    await alice.client.deleteChannel(archived.id);
    await expectClientError(alice.client.addReaction(alice.id, old.id, 'eyes'), 403, 'api.reaction.save.archived_channel.app_error');
  });
});
