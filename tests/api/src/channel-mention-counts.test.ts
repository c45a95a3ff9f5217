import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertJson, raw } from './support/http';
import { newChannel, postIn, teamMember, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('channel mention counts (mention_count, mention_count_root)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const unread = async (actor: Actor, channelId: string) => {
    const response = await raw(world.target.url, 'GET', `/api/v4/users/${actor.id}/channels/${channelId}/unread`, { token: actor.token });
    assertJson(response, 200);
    return { mention_count: response.json.mention_count as number, mention_count_root: response.json.mention_count_root as number };
  };

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when alice mentions bob, then bob\'s mentions count (roots too), alice\'s own stay 0, a named non-member gains nothing, and a view resets them', async () => {
    const carol = await teamMember(world.target.url, world.admin, world.team, 'carol');
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 0, mention_count_root: 0 });

    const root = await postIn(alice, channel.id, `hi @${bob.username} and @${carol.username}, says @${alice.username}`);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 1, mention_count_root: 1 });
    assert.deepEqual(await unread(alice, channel.id), { mention_count: 0, mention_count_root: 0 }, 'the author never');
    await postIn(alice, channel.id, 'no mention here');
    await postIn(alice, channel.id, `reply for @${bob.username}`, { root_id: root.id });
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 2, mention_count_root: 1 }, 'a reply counts on mention_count only');
    const member = await bob.client.getChannelMember(channel.id, bob.id);
    assert.deepEqual([member.mention_count, member.mention_count_root], [2, 1]);

    await carol.client.addToChannel(carol.id, channel.id);
    assert.equal((await carol.client.getChannelMember(channel.id, carol.id)).mention_count, 0, 'named before joining: not counted');

    await bob.client.viewMyChannel(channel.id);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 0, mention_count_root: 0 });
    await postIn(alice, channel.id, `again @${bob.username}`);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 1, mention_count_root: 1 });
  });

  it('when alice writes @channel, then every other member gains one and alice none', async () => {
    const carol = await teamMember(world.target.url, world.admin, world.team, 'carol');
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    await carol.client.addToChannel(carol.id, channel.id);
    await postIn(alice, channel.id, `@channel heads up, @${bob.username}`);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 1, mention_count_root: 1 }, 'once per post, however often named');
    assert.deepEqual(await unread(carol, channel.id), { mention_count: 1, mention_count_root: 1 });
    assert.deepEqual(await unread(alice, channel.id), { mention_count: 0, mention_count_root: 0 });
  });

  it('when an urgent post (metadata.priority urgent) mentions bob, then his urgent_mention_count counts it too (unread and member answers), others do not, and a view resets it', async () => {
    const channel = await newChannel(alice, world.team);
    await bob.client.addToChannel(bob.id, channel.id);
    const urgentCount = async () => {
      const response = await raw(world.target.url, 'GET', `/api/v4/users/${bob.id}/channels/${channel.id}/unread`, { token: bob.token });
      assertJson(response, 200);
      return response.json.urgent_mention_count as number;
    };
    assert.equal(await urgentCount(), 0);
    await postIn(alice, channel.id, `@${bob.username} urgent`, { metadata: { priority: { priority: 'urgent' } } } as never);
    await postIn(alice, channel.id, `@${bob.username} important`, { metadata: { priority: { priority: 'important' } } } as never);
    await postIn(alice, channel.id, `@${bob.username} plain`);
    await postIn(alice, channel.id, 'urgent, nobody named', { metadata: { priority: { priority: 'urgent' } } } as never);
    assert.equal(await urgentCount(), 1);
    assert.deepEqual(await unread(bob, channel.id), { mention_count: 3, mention_count_root: 3 });
    assert.equal((await bob.client.getChannelMember(channel.id, bob.id)).urgent_mention_count, 1);
    await bob.client.viewMyChannel(channel.id);
    assert.equal(await urgentCount(), 0);
  });

  it('when alice writes to bob directly, then every post of hers counts for bob, none for her, and bob\'s answer counts for her', async () => {
    const dm = await alice.client.createDirectChannel([alice.id, bob.id]);
    const before = (await unread(bob, dm.id)).mention_count;
    await postIn(alice, dm.id, 'hello');
    await postIn(alice, dm.id, 'are you there?');
    assert.equal((await unread(bob, dm.id)).mention_count, before + 2);
    assert.equal((await unread(alice, dm.id)).mention_count, 0);
    await postIn(bob, dm.id, 'yes');
    assert.equal((await unread(alice, dm.id)).mention_count, 1);
    await bob.client.viewMyChannel(dm.id);
    assert.equal((await unread(bob, dm.id)).mention_count, 0);
  });
});
