import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import { eventually } from './support/eventually';
import { createBot, login, patchConfig } from './support/fixtures';
import { givenBotHookWorld } from './support/bot-hook-world';
import type { IntegrationWorld } from './support/integration-world';
import { assertAppError, assertJson, raw } from './support/http';
import { waitForPost } from './support/incoming-hooks';
import type { Received } from './support/outgoing-receiver';
import { newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';

interface HookJson {
  id: string;
  bot_user_id: string;
  disabled_at: number;
}

/** Posts, then gives the dispatcher time to (not) fire: no hook may fire for it within the pause. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400));

// Group messages (G): Switchyard has no POST /channels/group yet; the G path is covered by the unit tests.
describe('bot hooks: DMs and mentions in private channels, members only', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let bot: Actor;
  let priv: Channel;
  let hook: HookJson;

  before(async () => {
    ({ world, bot, priv, hook } = await givenBotHookWorld<HookJson>({ path: '/bot' }));
  });
  after(() => world?.stop());

  const bodyFor = (postId: string): Promise<Record<string, unknown>> =>
    world.receiver.waitFor((r) => r.path === '/bot' && r.body.includes(postId)).then((r: Received) => JSON.parse(r.body) as Record<string, unknown>);
  const firedFor = (postId: string): boolean => world.receiver.requests.some((r) => r.path === '/bot' && r.body.includes(postId));

  it('when the bot is mentioned in a private channel it is in, then the hook fires with channel_type and bot_user_id; without a mention it does not', async () => {
    assert.equal(hook.bot_user_id, bot.id);
    const mention = await postIn(world.member, priv.id, `hey @${bot.username} status?`);
    const body = await bodyFor(mention.id);
    assert.equal(body.channel_type, 'P');
    assert.equal(body.bot_user_id, bot.id);
    assert.equal(body.channel_id, priv.id);
    assert.equal(body.text, `hey @${bot.username} status?`);
    const plain = await postIn(world.member, priv.id, 'nothing for bots here');
    const lookalike = await postIn(world.member, priv.id, `hey @${bot.username}x`);
    await settle();
    assert.equal(firedFor(plain.id), false);
    assert.equal(firedFor(lookalike.id), false);
  });

  it('when someone messages the bot directly, then the hook fires and its answer is posted as the bot', async () => {
    world.receiver.respond((r) => (r.path === '/bot' && r.body.includes('"channel_type":"D"') ? { body: JSON.stringify({ text: 'bot says hi' }) } : {}));
    const dm = await world.member.client.createDirectChannel([world.member.id, bot.id]);
    const post = await postIn(world.member, dm.id, 'hello bot');
    const body = await bodyFor(post.id);
    assert.equal(body.channel_type, 'D');
    assert.equal(body.team_id, '');
    const reply = await waitForPost(world.target.url, world.member.token, dm.id, (p) => p.message === 'bot says hi');
    assert.equal(reply.user_id, bot.id);
    world.receiver.respond(() => ({}));
  });

  it('when the bot is mentioned where it is not a member, or has left, then nothing fires', async () => {
    const other = await newChannel(world.admin, world.team, 'P');
    await world.admin.client.addToChannel(world.member.id, other.id);
    const outside = await postIn(world.member, other.id, `@${bot.username} are you there?`);
    const open = await postIn(world.member, world.channel.id, `@${bot.username} public ping`);
    // Membership changes mid-run: once the bot leaves the private channel, mentions there no longer fire.
    await world.admin.client.removeFromChannel(bot.id, priv.id);
    const afterLeave = await postIn(world.member, priv.id, `@${bot.username} still there?`);
    await settle();
    assert.equal(firedFor(outside.id), false);
    assert.equal(firedFor(open.id), false, 'the bot is not a member of the open channel either');
    assert.equal(firedFor(afterLeave.id), false);
    await world.admin.client.addToChannel(bot.id, priv.id);
  });

  it("when a hook names a human, an unknown user, a disabled bot, another team's bot or someone else's bot, then it is refused", async () => {
    const create = (token: string, botUserId: string) =>
      raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token, body: { team_id: world.team.id, bot_user_id: botUserId, callback_urls: [`${world.receiver.url}/bad`] } });
    assertAppError(await create(world.admin.token, world.member.id), 400, 'model.outgoing_hook.is_valid.bot_user_id.app_error');
    assertAppError(await create(world.admin.token, 'a'.repeat(26)), 400, 'model.outgoing_hook.is_valid.bot_user_id.app_error');
    const elsewhere = await teamBot(world.target.url, world.admin, await newTeam(world.admin));
    assertAppError(await create(world.admin.token, elsewhere.id), 400, 'model.outgoing_hook.is_valid.bot_user_id.app_error');
    const disabled = await createBot(world.admin.client, 'dis');
    await world.admin.client.addToTeam(world.team.id, disabled.user_id);
    await world.admin.client.disableBot(disabled.user_id);
    assertAppError(await create(world.admin.token, disabled.user_id), 400, 'model.outgoing_hook.is_valid.bot_user_id.app_error');
    await patchConfig(world.admin.client, { ServiceSettings: { EnableOnlyAdminIntegrations: false } });
    try {
      assertAppError(await create(world.member.token, bot.id), 403, 'api.context.permissions.app_error');
    } finally {
      await patchConfig(world.admin.client, { ServiceSettings: { EnableOnlyAdminIntegrations: true } });
    }
  });

  it('when the bot is disabled, then its hook stops; when the creator may no longer manage the bot, then the hook is disabled', async () => {
    const second = await teamMember(world.target.url, world.admin, world.team, 'adm');
    const promote = await raw(world.target.url, 'PUT', `/api/v4/users/${second.id}/roles`, { token: world.admin.token, body: { roles: 'system_user system_admin' } });
    assert.equal(promote.status, 200);
    const { token } = await login(world.target.url, second.username);
    const otherBot = await teamBot(world.target.url, world.admin, world.team);
    const created = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token, body: { team_id: world.team.id, bot_user_id: otherBot.id, callback_urls: [`${world.receiver.url}/rights`] } });
    assertJson(created, 201);
    const rightsHook = created.json as HookJson;
    const demote = await raw(world.target.url, 'PUT', `/api/v4/users/${second.id}/roles`, { token: world.admin.token, body: { roles: 'system_user' } });
    assert.equal(demote.status, 200);
    const dm = await world.member.client.createDirectChannel([world.member.id, otherBot.id]);
    const post = await postIn(world.member, dm.id, 'anyone?');
    const disabledHook = await eventually('the hook disabled', async () => {
      const got = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${rightsHook.id}`, { token: world.admin.token })).json as HookJson;
      return got.disabled_at > 0 ? got : undefined;
    });
    assert.ok(disabledHook.disabled_at > 0);
    assert.equal(world.receiver.requests.some((r) => r.path === '/rights' && r.body.includes(post.id)), false);
    // A disabled bot: its hook no longer fires.
    await world.admin.client.disableBot(bot.id);
    const dm2 = await world.member.client.createDirectChannel([world.member.id, bot.id]);
    const silent = await postIn(world.member, dm2.id, 'are you off?');
    await settle();
    assert.equal(firedFor(silent.id), false);
  });
});
