import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, postIn, teamMember, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

const DEFAULTS = { desktop: 'default', email: 'default', mark_unread: 'all', push: 'default', ignore_channel_mentions: 'default' };

describe('channel member notify props (PUT /channels/{id}/members/{user_id}/notify_props)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const put = (token: string, channelId: string, userId: string, body: unknown) =>
    raw(world.target.url, 'PUT', `/api/v4/channels/${channelId}/members/${userId}/notify_props`, { token, body });
  const propsOf = async (actor: Actor, channelId: string, userId = actor.id) => (await actor.client.getChannelMember(channelId, userId)).notify_props as Record<string, string>;

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when bob sets his props, then OK, they read back merged with the defaults, and a later change keeps the others', async () => {
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    assert.deepEqual(await propsOf(bob, channel.id), DEFAULTS, 'a member never set answers the defaults');

    const socket = await world.open(bob.token);
    const answer = await bob.client.updateChannelNotifyProps({ channel_id: channel.id, user_id: bob.id, desktop: 'all', mark_unread: 'mention', ignore_channel_mentions: 'on', push_threads: 'mention', unknown_key: 'x' } as never);
    assert.deepEqual(answer, { status: 'OK' });
    assert.deepEqual(await propsOf(bob, channel.id), { ...DEFAULTS, desktop: 'all', mark_unread: 'mention', ignore_channel_mentions: 'on', push_threads: 'mention' });
    const event = await socket.event('channel_member_updated', (f) => typeof f.data?.channelMember === 'string' && (f.data.channelMember as string).includes(channel.id));
    assert.equal(event.broadcast?.user_id, bob.id);
    const sent = JSON.parse(event.data?.channelMember as string) as { channel_id: string; user_id: string; notify_props: Record<string, string> };
    assert.deepEqual([sent.channel_id, sent.user_id, sent.notify_props.desktop, sent.notify_props.email], [channel.id, bob.id, 'all', 'default']);

    assertJson(await put(bob.token, channel.id, bob.id, { desktop: 'none', email: 'false' }), 200);
    const expected = { ...DEFAULTS, desktop: 'none', email: 'false', mark_unread: 'mention', ignore_channel_mentions: 'on', push_threads: 'mention' };
    assert.deepEqual(await propsOf(bob, channel.id), expected);
    assert.deepEqual(await propsOf(alice, channel.id, bob.id), expected, 'others read them too');
    const listed = (await alice.client.getChannelMembers(channel.id)).find((m) => m.user_id === bob.id);
    assert.deepEqual(listed?.notify_props, expected);
    assert.deepEqual(await propsOf(alice, channel.id), DEFAULTS, 'alice\'s own unchanged');
  });

  it('when someone changes another user\'s props, then 403 unless a system admin; a non-member 404; a bad body or value 400 with the reference\'s id', async () => {
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    const carol = await teamMember(world.target.url, world.admin, world.team, 'carol');

    assertAppError(await put(alice.token, channel.id, bob.id, { desktop: 'all' }), 403, 'api.context.permissions.app_error');
    assert.deepEqual(await propsOf(bob, channel.id), DEFAULTS, 'refused: nothing stored');
    assertJson(await put(world.admin.token, channel.id, bob.id, { desktop: 'mention' }), 200);
    assert.equal((await propsOf(bob, channel.id)).desktop, 'mention');

    assertAppError(await put(carol.token, channel.id, carol.id, { desktop: 'all' }), 404, 'app.channel.get_member.missing.app_error');
    assertAppError(await put(bob.token, channel.id, bob.id, ['desktop']), 400, 'api.context.invalid_body_param.app_error');
    const bad: [Record<string, string>, string][] = [
      [{ desktop: 'loud' }, 'notify_level'],
      [{ mark_unread: 'none' }, 'unread_level'],
      [{ push: 'true' }, 'push_level'],
      [{ email: 'all' }, 'email_value'],
      [{ ignore_channel_mentions: 'yes' }, 'ignore_channel_mentions_value'],
    ];
    for (const [body, id] of bad) assertAppError(await put(bob.token, channel.id, bob.id, body), 400, `model.channel_member.is_valid.${id}.app_error`);
    assert.equal((await propsOf(bob, channel.id)).desktop, 'mention', 'refused values are not stored');
  });
  it('when bob ignores channel mentions, then @channel and @all do not count for him unless he is named, while carol (off) and dave (default) count', async () => {
    const channel = await newChannel(alice, world.team);
    const carol = await teamMember(world.target.url, world.admin, world.team, 'carol');
    const dave = await teamMember(world.target.url, world.admin, world.team, 'dave');
    for (const member of [bob, carol, dave]) await member.client.addToChannel(member.id, channel.id);
    assertJson(await put(bob.token, channel.id, bob.id, { ignore_channel_mentions: 'on' }), 200);
    assertJson(await put(carol.token, channel.id, carol.id, { ignore_channel_mentions: 'off' }), 200);
    const mentions = async (actor: Actor) => (await actor.client.getChannelMember(channel.id, actor.id)).mention_count;

    await postIn(alice, channel.id, '@channel heads up');
    await postIn(alice, channel.id, 'and @all of you');
    assert.deepEqual([await mentions(bob), await mentions(carol), await mentions(dave)], [0, 2, 2]);
    await postIn(alice, channel.id, `@channel especially @${bob.username}`);
    assert.deepEqual([await mentions(bob), await mentions(carol), await mentions(dave)], [1, 3, 3], 'named: counted once');
    assertJson(await put(bob.token, channel.id, bob.id, { ignore_channel_mentions: 'default' }), 200);
    await postIn(alice, channel.id, '@all again');
    assert.equal(await mentions(bob), 2, 'default: not ignored (no user-level setting is looked up)');
  });
});
