import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import { eventually } from './support/eventually';
import { givenBotHookWorld } from './support/bot-hook-world';
import type { IntegrationWorld } from './support/integration-world';
import { assertJson, raw } from './support/http';
import { waitForPost } from './support/incoming-hooks';
import type { Received } from './support/outgoing-receiver';
import { newChannel, postIn, teamMember, type Actor } from './support/posts-fixtures';

interface HookJson {
  id: string;
  token: string;
}

interface EventBody {
  type: string;
  data: Record<string, unknown>;
}

/** Gives the dispatcher time to (not) fire: nothing may arrive for the action within the pause. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 600));

const ALL_TYPES = ['posted', 'post_edited', 'post_deleted', 'reaction_added', 'reaction_removed', 'channel_member_added', 'channel_member_removed'];

describe('bot hooks hear event types beyond posted in the bot\'s channels only; group messages end to end', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let bot: Actor;
  let priv: Channel;
  let hook: HookJson;

  before(async () => {
    ({ world, bot, priv, hook } = await givenBotHookWorld<HookJson>({ path: '/bot-events', eventTypes: ALL_TYPES }));
  });
  after(() => world?.stop());

  const at = (): Received[] => world.receiver.requests.filter((r) => r.path === '/bot-events');
  const events = (): EventBody[] => at().flatMap((r) => (r.body.includes('"type":"') ? [JSON.parse(r.body) as EventBody] : []));
  const eventFor = (type: string, id: string): EventBody | undefined => events().find((e) => e.type === type && JSON.stringify(e.data).includes(id));

  it('when a post in a private channel the bot is in is edited, reacted to and deleted, and members come and go, then each event arrives once, in order', async () => {
    const post = await postIn(world.member, priv.id, 'plain words, no mention');
    await world.member.client.patchPost({ id: post.id, message: 'edited words' } as never);
    await world.member.client.addReaction(world.member.id, post.id, 'tada');
    await world.member.client.removeReaction(world.member.id, post.id, 'tada');
    await world.member.client.deletePost(post.id);
    const newcomer = await teamMember(world.target.url, world.admin, world.team);
    await world.admin.client.addToChannel(newcomer.id, priv.id);
    await world.admin.client.removeFromChannel(newcomer.id, priv.id);
    const wanted = ['post_edited', 'reaction_added', 'reaction_removed', 'post_deleted'];
    await eventually('the post events', () => (wanted.every((t) => eventFor(t, post.id)) ? true : undefined));
    await eventually('the member events', () => (events().some((e) => e.type === 'channel_member_removed' && e.data.channel_id === priv.id && e.data.user_id === newcomer.id) ? true : undefined));
    // The newcomer also joined the team's default channels, which the bot is in too: only this channel's events here.
    const seen = events().filter((e) => e.data.channel_id === priv.id && (JSON.stringify(e.data).includes(post.id) || JSON.stringify(e.data).includes(newcomer.id))).map((e) => e.type);
    assert.deepEqual(seen, [...wanted, 'channel_member_added', 'channel_member_removed']);
    assert.equal((eventFor('post_edited', post.id)?.data.post as { message: string }).message, 'edited words');
    assert.equal(eventFor('reaction_added', post.id)?.data.channel_id, priv.id);
    // A plain post without a mention is not a `posted` for a bot hook (mentions, DMs/GMs or its channel only).
    assert.equal(at().some((r) => !r.body.includes('"type":"') && r.body.includes(post.id)), false);
  });

  it('when the same happens where the bot is not a member, or after it left mid-run, then nothing arrives', async () => {
    const other = await newChannel(world.admin, world.team, 'P');
    await world.admin.client.addToChannel(world.member.id, other.id);
    const outside = await postIn(world.member, other.id, 'not for the bot');
    await world.member.client.addReaction(world.member.id, outside.id, 'eyes');
    const open = await postIn(world.member, world.channel.id, 'open but the bot is not in it');
    await world.member.client.addReaction(world.member.id, open.id, 'eyes');
    const before = await postIn(world.member, priv.id, 'before the bot leaves');
    await world.member.client.addReaction(world.member.id, before.id, 'wave');
    await eventually('the reaction while the bot was there', () => eventFor('reaction_added', before.id));
    await world.admin.client.removeFromChannel(bot.id, priv.id);
    await world.member.client.addReaction(world.member.id, before.id, 'smile');
    await world.member.client.patchPost({ id: before.id, message: 'edited after the bot left' } as never);
    await settle();
    for (const id of [outside.id, open.id]) assert.equal(events().some((e) => JSON.stringify(e.data).includes(id)), false, id);
    assert.equal(events().filter((e) => JSON.stringify(e.data).includes(before.id)).length, 1, 'only the reaction made while the bot was a member');
    await world.admin.client.addToChannel(bot.id, priv.id);
  });

  it('when members post and react in a group message with the bot (POST /channels/group), then the hook hears both and replies as the bot; a group without the bot is never heard', async () => {
    world.receiver.respond((r) => (r.path === '/bot-events' && r.body.includes('"channel_type":"G"') ? { body: JSON.stringify({ text: 'bot in the group' }) } : {}));
    const third = await teamMember(world.target.url, world.admin, world.team, 'gm');
    const group = await raw(world.target.url, 'POST', '/api/v4/channels/group', { token: world.member.token, body: [world.member.id, third.id, bot.id] });
    assertJson(group, 201);
    const gm = group.json as Channel;
    assert.equal(gm.type, 'G');
    const post = await postIn(world.member, gm.id, 'hello group with a bot');
    const fired = await eventually('the posted delivery', () => at().find((r) => !r.body.includes('"type":"') && r.body.includes(post.id)));
    const payload = JSON.parse(fired.body) as Record<string, unknown>;
    assert.equal(payload.channel_type, 'G');
    assert.equal(payload.bot_user_id, bot.id);
    const reply = await waitForPost(world.target.url, world.member.token, gm.id, (p) => p.message === 'bot in the group');
    assert.equal(reply.user_id, bot.id);
    await third.client.addReaction(third.id, post.id, 'thumbsup');
    const reaction = await eventually('the group reaction', () => eventFor('reaction_added', post.id));
    assert.equal(reaction.data.team_id, '');
    world.receiver.respond(() => ({}));
    const without = await raw(world.target.url, 'POST', '/api/v4/channels/group', { token: world.member.token, body: [world.member.id, third.id, world.admin.user.id] });
    assertJson(without, 201);
    const silent = await postIn(world.member, (without.json as Channel).id, 'no bot here');
    await third.client.addReaction(third.id, silent.id, 'eyes');
    await settle();
    assert.equal(at().some((r) => r.body.includes(silent.id)), false);
  });

  // Only system admins may manage bots, so a bot hook's creator can read every channel; the log still carries ids
  // only, so whoever reads it (a creator who lost the right to a channel included) learns no message text from it.
  it("when the bot hook fires in a private channel, then its delivery log shows the post id and never the message text", async () => {
    const secret = `secret-words-${Date.now().toString(36)}`;
    const post = await postIn(world.member, priv.id, `@${bot.username} ${secret}`);
    await eventually('the mention delivered', () => at().find((r) => r.body.includes(post.id)));
    const log = await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries?per_page=200`, { token: world.admin.token });
    assertJson(log, 200);
    assert.ok((log.json as { post_id: string }[]).some((d) => d.post_id === post.id));
    assert.ok(!log.text.includes(secret), 'no message text in the delivery log');
    assert.ok(!log.text.includes('plain words') && !log.text.includes('edited words'));
  });
});
