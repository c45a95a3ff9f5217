import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { createUser, patchConfig, uniqueName, type AdminSession } from './support/fixtures';
import { raw } from './support/http';
import type { OfficialSocket } from './support/mm-websocket';
import { startOutgoingReceiver, type OutgoingReceiver } from './support/outgoing-receiver';
import { newChannel, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import { parsed, type Frame, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

/** Nothing matching arrived before a reply that was sent after it would have been. */
async function assertNothing(socket: TestSocket, what: (f: Frame) => boolean): Promise<void> {
  await socket.request('ping');
  assert.deepEqual(socket.frames.filter(what), []);
}

describe('WebSocket API: the event catalogue, through the official WebSocketClient and raw sockets', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  let aliceWs: OfficialSocket;
  let bobWs: OfficialSocket;
  let adminWs: TestSocket;
  let receiver: OutgoingReceiver;
  const openRaw = (token: string): Promise<TestSocket> => world.open(token);

  before(async () => {
    world = await wsWorld({ alsoRestore: ['AllowedUntrustedInternalConnections'] });
    ({ target, admin, team, alice, bob } = world);
    aliceWs = world.official(alice.token);
    bobWs = world.official(bob.token);
    await aliceWs.event('hello');
    await bobWs.event('hello');
    adminWs = await openRaw(admin.token);
    receiver = await startOutgoingReceiver();
  });
  after(async () => {
    await receiver?.close();
    await world?.stop();
  });

  it('when the official client connects with a token, then hello carries the connection id and every event arrives in seq order', async () => {
    const hello = aliceWs.events.find((f) => f.event === 'hello');
    assert.equal(hello?.seq, 0);
    assert.match(String(hello?.data?.connection_id), /^[a-z0-9]{26}$/);
    const reply = await aliceWs.request('ping', {});
    assert.equal(reply.status, 'OK');
    assert.equal(reply.data?.text, 'pong');
  });

  it('when a post is created, edited, reacted to, unreacted and deleted, then posted, post_edited, reaction_added, reaction_removed and post_deleted arrive with the reference data', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const post = await postIn(alice, channel.id, 'first words');
    const posted = await bobWs.event('posted', (f) => parsed(f, 'post').id === post.id);
    assert.equal(posted.broadcast?.channel_id, channel.id);
    assert.equal(posted.data?.channel_type, 'O');

    await alice.client.patchPost({ id: post.id, message: 'edited words' });
    const edited = await bobWs.event('post_edited', (f) => parsed(f, 'post').id === post.id);
    assert.equal(parsed(edited, 'post').message, 'edited words');
    assert.deepEqual(Object.keys(edited.data ?? {}), ['post']);
    assert.equal(edited.broadcast?.channel_id, channel.id);

    await bob.client.addReaction(bob.id, post.id, 'thumbsup');
    const added = await aliceWs.event('reaction_added', (f) => parsed(f, 'reaction').post_id === post.id);
    const reaction = parsed(added, 'reaction');
    assert.equal(reaction.user_id, bob.id);
    assert.equal(reaction.emoji_name, 'thumbsup');
    assert.equal(typeof reaction.create_at, 'number');
    assert.equal(added.broadcast?.channel_id, channel.id);
    await bob.client.removeReaction(bob.id, post.id, 'thumbsup');
    const removed = await aliceWs.event('reaction_removed', (f) => parsed(f, 'reaction').post_id === post.id);
    assert.equal(parsed(removed, 'reaction').emoji_name, 'thumbsup');

    await alice.client.deletePost(post.id);
    const deleted = await bobWs.event('post_deleted', (f) => parsed(f, 'post').id === post.id);
    assert.equal(deleted.broadcast?.contains_sanitized_data, true);
    assert.deepEqual(Object.keys(deleted.data ?? {}), ['post'], 'the sanitised copy names no deleter');
    assert.equal(parsed<{ props?: Record<string, unknown> }>(deleted, 'post').props?.deleteBy, undefined);
  });

  it('when the admin is in a channel where a post is deleted, then the admin gets only the sensitive post_deleted copy', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(admin.user.id, channel.id);
    const post = await postIn(alice, channel.id, 'soon gone');
    await adminWs.event('posted', (f) => parsed(f, 'post').id === post.id);
    await alice.client.deletePost(post.id);
    const copy = await adminWs.event('post_deleted', (f) => parsed(f, 'post').id === post.id);
    assert.equal(copy.broadcast?.contains_sensitive_data, true);
    assert.equal(copy.data?.delete_by, alice.id, 'the sensitive copy names who deleted it');
    await assertNothing(adminWs, (f) => f.event === 'post_deleted' && f.broadcast?.contains_sanitized_data === true && parsed(f, 'post').id === post.id);
  });

  it('when a channel is created, then only the creator gets channel_created; members are added and removed: user_added and user_removed as the reference', async () => {
    const channel = await newChannel(alice, team);
    const created = await aliceWs.event('channel_created', (f) => f.data?.channel_id === channel.id);
    assert.deepEqual(created.data, { channel_id: channel.id, team_id: team.id });
    assert.equal(created.broadcast?.user_id, alice.id);

    await alice.client.addToChannel(bob.id, channel.id);
    const toMembers = await aliceWs.event('user_added', (f) => f.broadcast?.channel_id === channel.id);
    assert.deepEqual(toMembers.data, { team_id: team.id, user_id: bob.id });
    assert.deepEqual(toMembers.broadcast?.omit_users, { [bob.id]: true });
    const toNewMember = await bobWs.event('user_added', (f) => f.data?.user_id === bob.id && f.data?.team_id === team.id && f.broadcast?.user_id === bob.id);
    assert.equal(toNewMember.broadcast?.channel_id, '');

    await alice.client.removeFromChannel(bob.id, channel.id);
    const toRemaining = await aliceWs.event('user_removed', (f) => f.broadcast?.channel_id === channel.id);
    assert.deepEqual(toRemaining.data, { remover_id: alice.id, user_id: bob.id });
    const toRemoved = await bobWs.event('user_removed', (f) => f.data?.channel_id === channel.id);
    assert.deepEqual(toRemoved.data, { channel_id: channel.id, remover_id: alice.id });
    assert.equal(toRemoved.broadcast?.user_id, bob.id);
    assert.equal(bobWs.events.some((f) => f.event === 'channel_created' && f.data?.channel_id === channel.id), false);
  });

  it('when a public channel is archived, then team members get channel_deleted with delete_at', async () => {
    const channel = await newChannel(alice, team);
    const res = await raw(target.url, 'DELETE', `/api/v4/channels/${channel.id}`, { token: alice.token });
    assert.equal(res.status, 200, res.text);
    const event = await bobWs.event('channel_deleted', (f) => f.data?.channel_id === channel.id);
    assert.equal(typeof event.data?.delete_at, 'number');
    assert.ok(Number(event.data?.delete_at) > 0);
    assert.equal(event.broadcast?.team_id, team.id);
  });

  it('when a direct channel is created, then both users get direct_added with the creator and the teammate', async () => {
    const carol = await teamMember(target.url, admin, team, 'carol');
    const carolWs = await openRaw(carol.token);
    const dm = await alice.client.createDirectChannel([alice.id, carol.id]);
    for (const event of [await aliceWs.event('direct_added', (f) => f.broadcast?.channel_id === dm.id), await carolWs.event('direct_added', (f) => f.broadcast?.channel_id === dm.id)]) {
      assert.deepEqual(event.data, { creator_id: alice.id, teammate_id: carol.id });
    }
    const post = await postIn(alice, dm.id, 'psst');
    const posted = await carolWs.event('posted', (f) => parsed(f, 'post').id === post.id);
    assert.equal(posted.data?.channel_type, 'D');
    assert.equal(posted.data?.channel_display_name, `@${alice.username}`);
    assert.equal(posted.data?.team_id, '');
    await assertNothing(adminWs, (f) => f.broadcast?.channel_id === dm.id);
  });

  it('when a user is created, added to a team, updated and deactivated, then new_user, added_to_team (to them), user_updated (to everyone), and their sockets close', async () => {
    const created = await createUser(admin.client, 'dave');
    const newUser = await aliceWs.event('new_user', (f) => f.data?.user_id === created.user.id);
    assert.equal(newUser.broadcast?.user_id, '');
    const daveSession = await raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: created.user.username, password: created.password } });
    const daveToken = String(daveSession.headers.get('token'));
    const daveWs = await openRaw(daveToken);
    await admin.client.addToTeam(team.id, created.user.id);
    const added = await daveWs.event('added_to_team', (f) => f.data?.team_id === team.id);
    assert.deepEqual(added.data, { team_id: team.id, user_id: created.user.id });
    assert.equal(added.broadcast?.user_id, created.user.id);

    // With e-mail addresses hidden, non-admins get the sanitised copy, admins the sensitive one, the user their own.
    await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: false } });
    try {
      const roles = await raw(target.url, 'PUT', `/api/v4/users/${created.user.id}/roles`, { token: admin.token, body: { roles: 'system_user system_post_all_public' } });
      assert.equal(roles.status, 200, roles.text);
      const isDave = (f: Frame): boolean => (f.data?.user as { id?: string } | undefined)?.id === created.user.id;
      const updated = await bobWs.event('user_updated', isDave);
      const user = updated.data?.user as Record<string, unknown>;
      assert.equal(typeof user, 'object', 'user_updated.data.user is an object, not a JSON string');
      assert.equal(user.username, created.user.username);
      assert.equal(user.roles, 'system_user system_post_all_public');
      assert.equal(user.email, '', 'ShowEmailAddress=false hides the e-mail from non-admins');
      assert.equal(user.create_at, created.user.create_at);
      assert.ok(Number(user.update_at) >= Number(created.user.create_at) && Number(user.update_at) > 0);
      assert.equal('password' in user, false);
      assert.equal(updated.broadcast?.user_id, '');
      assert.equal(updated.broadcast?.contains_sanitized_data, true);
      assert.deepEqual(updated.broadcast?.omit_users, { [created.user.id]: true });

      const toAdmin = await adminWs.event('user_updated', isDave);
      assert.equal(toAdmin.broadcast?.contains_sensitive_data, true);
      assert.equal((toAdmin.data?.user as Record<string, unknown>).email, created.email);
      await assertNothing(adminWs, (f) => isDave(f) && f.broadcast?.contains_sanitized_data === true);

      const toSelf = await daveWs.event('user_updated', isDave);
      assert.equal(toSelf.broadcast?.user_id, created.user.id);
      assert.equal((toSelf.data?.user as Record<string, unknown>).email, created.email);
      assert.equal(daveWs.frames.filter((f) => f.event === 'user_updated' && isDave(f)).length, 1, 'the user is omitted from the other two copies');
    } finally {
      await patchConfig(admin.client, { PrivacySettings: { ShowEmailAddress: true } });
    }

    // Deactivation: user_updated with delete_at for everyone, and the user's own sockets close.
    const deactivated = await raw(target.url, 'PUT', `/api/v4/users/${created.user.id}/active`, { token: admin.token, body: { active: false } });
    assert.equal(deactivated.status, 200, deactivated.text);
    await daveWs.closed;
    const gone = await bobWs.event('user_updated', (f) => (f.data?.user as { id?: string; delete_at?: number } | undefined)?.id === created.user.id && Number((f.data?.user as { delete_at?: number }).delete_at) > 0);
    assert.ok(gone);
  });

  it('when a member types, then the other members get typing (not the typist, not outsiders)', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    await bobWs.event('user_added', (f) => f.broadcast?.user_id === bob.id && f.data?.user_id === bob.id);
    const reply = await aliceWs.request('user_typing', { channel_id: channel.id, parent_id: '' });
    assert.equal(reply.status, 'OK');
    const typing = await bobWs.event('typing', (f) => f.broadcast?.channel_id === channel.id);
    assert.deepEqual(typing.data, { parent_id: '', user_id: alice.id });
    assert.deepEqual(typing.broadcast?.omit_users, { [alice.id]: true });
    assert.equal(aliceWs.events.some((f) => f.event === 'typing' && f.broadcast?.channel_id === channel.id), false);
    await assertNothing(adminWs, (f) => f.event === 'typing' && f.broadcast?.channel_id === channel.id);
    const outsiderChannel = await newChannel(bob, team, 'P');
    const refused = await aliceWs.request('user_typing', { channel_id: outsiderChannel.id });
    assert.equal(refused.status, 'FAIL');
    assert.equal((refused.error as { id?: string }).id, 'api.websocket_handler.invalid_param.app_error');
  });

  it('when an ephemeral post is sent to one user, then exactly that user gets ephemeral_message', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const res = await raw(target.url, 'POST', '/api/v4/posts/ephemeral', { token: admin.token, body: { user_id: bob.id, post: { channel_id: channel.id, message: 'for bob only' } } });
    assert.equal(res.status, 201, res.text);
    const event = await bobWs.event('ephemeral_message', (f) => parsed(f, 'post').message === 'for bob only');
    const post = parsed(event, 'post');
    assert.equal(post.type, 'system_ephemeral');
    assert.equal(post.channel_id, channel.id);
    assert.equal(event.broadcast?.user_id, bob.id);
    assert.equal(event.broadcast?.channel_id, channel.id);
    const aliceRaw = await openRaw(alice.token);
    await assertNothing(aliceRaw, (f) => f.event === 'ephemeral_message');
    assert.equal(aliceWs.events.some((f) => f.event === 'ephemeral_message'), false);
  });

  it('when an action answers ephemeral_text and its integration opens a dialog, then the clicking user gets ephemeral_message and open_dialog', async () => {
    await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const post = await alice.client.createPost({
      channel_id: channel.id,
      message: 'deploy?',
      props: { attachments: [{ text: 'Deploy?', actions: [{ id: 'yes', name: 'Yes', type: 'button', integration: { url: `${receiver.url}/yes`, context: {} } }] }] },
    });
    receiver.respond(() => ({ body: JSON.stringify({ ephemeral_text: 'deploying for you' }) }));
    const clicked = await raw(target.url, 'POST', `/api/v4/posts/${post.id}/actions/yes`, { token: bob.token, body: {} });
    assert.equal(clicked.status, 200, clicked.text);
    const ephemeral = await bobWs.event('ephemeral_message', (f) => parsed(f, 'post').message === 'deploying for you');
    const wire = parsed(ephemeral, 'post');
    assert.equal(wire.user_id, bob.id);
    assert.equal(wire.root_id, post.id);
    assert.equal(ephemeral.broadcast?.user_id, bob.id);
    const request = await receiver.waitFor((r) => r.path === '/yes');
    const triggerId = String((JSON.parse(request.body) as { trigger_id: string }).trigger_id);
    const dialog = { callback_id: uniqueName('cb'), title: 'Deploy', elements: [{ display_name: 'Why', name: 'why', type: 'text' }] };
    const opened = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: triggerId, url: `${receiver.url}/dialog`, dialog } });
    assert.equal(opened.status, 200, opened.text);
    const event = await bobWs.event('open_dialog');
    const payload = parsed<{ trigger_id: string; url: string; dialog: Record<string, unknown> }>(event, 'dialog');
    assert.equal(payload.url, `${receiver.url}/dialog`);
    // The reference re-encodes the dialog from its Go structs: every field is sent, unset ones as zero values.
    const element = { data_source: '', default: '', display_name: 'Why', help_text: '', max_length: 0, min_length: 0, multiselect: false, name: 'why', optional: false, options: null, placeholder: '', subtype: '', type: 'text' };
    assert.deepEqual(payload.dialog, { callback_id: dialog.callback_id, title: 'Deploy', introduction_text: '', icon_url: '', elements: [element], notify_on_cancel: false, state: '', submit_label: '' });
    assert.match(payload.trigger_id, /^[a-z0-9]{26}$/);
    assert.equal(event.broadcast?.user_id, bob.id);
    assert.equal(aliceWs.events.some((f) => f.event === 'open_dialog' || (f.event === 'ephemeral_message' && parsed(f, 'post').message === 'deploying for you')), false);
  });
});
