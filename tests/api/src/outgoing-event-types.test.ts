import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/eventually';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertJson, raw } from './support/http';
import type { Received } from './support/outgoing-receiver';
import { newChannel, postIn, teamMember } from './support/posts-fixtures';

interface HookJson {
  id: string;
  token: string;
  signing_secret: string;
  event_types: string[];
}

interface EventBody {
  type: string;
  timestamp: string;
  token: string;
  data: Record<string, unknown>;
}

describe('outgoing hooks: event types beyond posted', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;

  before(async () => {
    world = await givenIntegrationWorld();
  });
  after(() => world?.stop());

  const createHook = async (body: Record<string, unknown>): Promise<HookJson> => {
    const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, content_type: 'application/json', ...body } });
    assertJson(res, 201);
    return res.json as HookJson;
  };
  const at = (path: string): Received[] => world.receiver.requests.filter((r) => r.path === path);
  const verified = (hook: HookJson, r: Received): EventBody => {
    const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
    return new Webhook(hook.signing_secret).verify(r.body, headers) as EventBody;
  };

  it('when a channel hook hears every post and member type, then each arrives once, signed, in order, with its envelope and data', async () => {
    const types = ['posted', 'post_edited', 'reaction_added', 'reaction_removed', 'post_deleted', 'channel_member_added', 'channel_member_removed'];
    const hook = await createHook({ channel_id: world.channel.id, callback_urls: [`${world.receiver.url}/all`], event_types: types });
    assert.deepEqual(hook.event_types, types);
    const member = world.member;
    const post = await postIn(member, world.channel.id, 'first words');
    await member.client.patchPost({ id: post.id, message: 'edited words' } as never);
    await member.client.addReaction(member.id, post.id, 'tada');
    await member.client.removeReaction(member.id, post.id, 'tada');
    await member.client.deletePost(post.id);
    const newcomer = await teamMember(world.target.url, world.admin, world.team);
    await world.admin.client.addToChannel(newcomer.id, world.channel.id);
    await world.admin.client.removeFromChannel(newcomer.id, world.channel.id);
    const received = await eventually('seven deliveries', () => (at('/all').length >= 7 ? at('/all') : undefined));
    // posted keeps the reference's payload; every other type is the JSON envelope.
    const posted = JSON.parse(received[0]?.body ?? '{}') as Record<string, unknown>;
    assert.equal(posted.post_id, post.id);
    assert.equal(posted.text, 'first words');
    const events = received.slice(1).map((r) => verified(hook, r));
    assert.deepEqual(events.map((e) => e.type), types.slice(1));
    for (const e of events) {
      assert.equal(e.token, hook.token);
      assert.match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    const [edited, added, removed, deleted, joined, left] = events;
    assert.equal((edited?.data.post as { message: string }).message, 'edited words');
    assert.equal(edited?.data.channel_id, world.channel.id);
    assert.equal(edited?.data.team_id, world.team.id);
    assert.deepEqual(Object.keys(added?.data.reaction as object).sort(), ['create_at', 'emoji_name', 'post_id', 'user_id']);
    assert.equal((added?.data.reaction as { emoji_name: string }).emoji_name, 'tada');
    assert.equal((removed?.data.reaction as { user_id: string }).user_id, member.id);
    assert.equal((deleted?.data.post as { id: string }).id, post.id);
    assert.deepEqual(joined?.data, { channel_id: world.channel.id, team_id: world.team.id, user_id: newcomer.id, actor_id: world.admin.user.id });
    assert.equal(left?.data.user_id, newcomer.id);
    // Exactly once each (a redelivered bus event finds the same delivery ids).
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(at('/all').length, 7);
    const log = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries?per_page=20`, { token: world.admin.token })).json as { event_type: string; status: string; post_id: string }[];
    assert.deepEqual(log.map((d) => d.event_type).sort(), [...types].sort());
    const reactionDelivery = log.find((d) => d.event_type === 'reaction_added');
    assert.equal(reactionDelivery?.post_id, post.id);
  });

  it('when a team-wide hook hears channel_created and reactions, then only public channels of its team count', async () => {
    const hook = await createHook({ trigger_words: ['neverused'], callback_urls: [`${world.receiver.url}/team`], event_types: ['channel_created', 'reaction_added'] });
    const priv = await newChannel(world.admin, world.team, 'P');
    const pub = await newChannel(world.admin, world.team, 'O');
    const secret = await postIn(world.admin, priv.id, 'private words');
    await world.admin.client.addReaction(world.admin.user.id, secret.id, 'eyes');
    const open = await postIn(world.admin, pub.id, 'public words');
    await world.admin.client.addReaction(world.admin.user.id, open.id, 'smile');
    const got = await eventually('the public channel and its reaction', () => (at('/team').length >= 2 ? at('/team') : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bodies = at('/team').map((r) => verified(hook, r));
    assert.equal(got.length, 2, JSON.stringify(bodies));
    assert.deepEqual(bodies.map((b) => b.type), ['channel_created', 'reaction_added']);
    assert.equal((bodies[0]?.data.channel as { id: string }).id, pub.id);
    assert.equal((bodies[1]?.data.reaction as { post_id: string }).post_id, open.id);
    assert.ok(!JSON.stringify(bodies).includes(priv.id));
  });

  it('when a hook hears only reactions, then posts do not fire it', async () => {
    const chan = await newChannel(world.admin, world.team, 'O');
    await createHook({ channel_id: chan.id, callback_urls: [`${world.receiver.url}/onlyreact`], event_types: ['reaction_added'] });
    const p = await postIn(world.admin, chan.id, 'no posted event please');
    await world.admin.client.addReaction(world.admin.user.id, p.id, 'ok_hand');
    await eventually('the reaction', () => at('/onlyreact')[0]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(at('/onlyreact').map((r) => (JSON.parse(r.body) as EventBody).type), ['reaction_added']);
  });
});
