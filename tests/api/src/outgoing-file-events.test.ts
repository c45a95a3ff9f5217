import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/eventually';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertJson, raw, sleep } from './support/http';
import type { Received } from './support/outgoing-receiver';
import { PICTURES } from './support/pictures';
import { newChannel, postIn, teamBot } from './support/posts-fixtures';

interface HookJson {
  id: string;
  token: string;
  signing_secret: string;
}

interface EventBody {
  type: string;
  timestamp: string;
  token: string;
  data: { file_info: Record<string, unknown>; channel_id: string; team_id: string };
}

/** README "Event types" `file_uploaded`: fires when a file becomes part of a post (an upload alone is the uploader's only). */
describe('outgoing hooks: the file_uploaded event type', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: { EnableBotAccountCreation: true } });
  });
  after(() => world?.stop());

  const createHook = async (body: Record<string, unknown>): Promise<HookJson> => {
    const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, content_type: 'application/json', event_types: ['file_uploaded'], ...body } });
    assertJson(res, 201);
    return res.json as HookJson;
  };
  const at = (path: string): Received[] => world.receiver.requests.filter((r) => r.path === path);
  const verified = (hook: HookJson, r: Received): EventBody => {
    const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
    return new Webhook(hook.signing_secret).verify(r.body, headers) as EventBody;
  };
  const upload = async (actor: { token: string }, channelId: string, name: string, data: Buffer): Promise<Record<string, unknown>> => {
    const form = new FormData();
    form.append('channel_id', channelId);
    form.append('files', new Blob([new Uint8Array(data)]), name);
    const response = await fetch(`${world.target.url}/api/v4/files`, { method: 'POST', headers: { Authorization: `Bearer ${actor.token}` }, body: form, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    assert.equal(response.status, 201, text);
    return (JSON.parse(text) as { file_infos: Record<string, unknown>[] }).file_infos[0] as Record<string, unknown>;
  };

  it('when a file is uploaded, then nothing fires; when a post carries it, then one signed file_uploaded per file with its info, logged with event_type', async () => {
    const hook = await createHook({ channel_id: world.channel.id, callback_urls: [`${world.receiver.url}/files`] });
    const member = world.member;
    const report = await upload(member, world.channel.id, 'report.csv', Buffer.from('a,b\n1,2\n'));
    const chart = await upload(member, world.channel.id, 'chart.png', PICTURES.png);
    await sleep(400);
    assert.equal(at('/files').length, 0, 'an upload alone is not announced');
    const post = await postIn(member, world.channel.id, 'the numbers', { file_ids: [String(report.id), String(chart.id)] });
    const got = await eventually('two file deliveries', () => (at('/files').length >= 2 ? at('/files') : undefined));
    const bodies = got.map((r) => verified(hook, r));
    assert.deepEqual(bodies.map((b) => b.type), ['file_uploaded', 'file_uploaded']);
    assert.deepEqual(bodies.map((b) => b.data.file_info.id).sort(), [report.id, chart.id].sort());
    for (const b of bodies) {
      assert.equal(b.token, hook.token);
      assert.equal(b.data.channel_id, world.channel.id);
      assert.equal(b.data.team_id, world.team.id);
      assert.equal(b.data.file_info.post_id, post.id);
      assert.equal(b.data.file_info.user_id, member.id);
      assert.equal(b.data.file_info.channel_id, world.channel.id);
      // The reference's FileInfo JSON: never a storage key.
      for (const hidden of ['path', 'thumbnail_path', 'preview_path']) assert.ok(!(hidden in b.data.file_info), hidden);
    }
    const csv = bodies.find((b) => b.data.file_info.id === report.id);
    assert.equal(csv?.data.file_info.name, 'report.csv');
    assert.equal(csv?.data.file_info.size, 8);
    // An edit that adds a file announces that file only.
    const late = await upload(member, world.channel.id, 'late.txt', Buffer.from('late'));
    await member.client.patchPost({ id: post.id, file_ids: [String(report.id), String(chart.id), String(late.id)] } as never);
    const third = await eventually('the added file', () => at('/files')[2]);
    assert.equal(verified(hook, third).data.file_info.id, late.id);
    await sleep(400);
    assert.equal(at('/files').length, 3, 'each file once');
    const log = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries?per_page=20`, { token: world.admin.token })).json as { event_type: string; post_id: string }[];
    assert.deepEqual(log.map((d) => d.event_type), ['file_uploaded', 'file_uploaded', 'file_uploaded']);
    assert.ok(log.every((d) => d.post_id === post.id));
  });

  it('when a team-wide hook hears file_uploaded, then files posted in a private channel never reach it, and public ones do', async () => {
    const hook = await createHook({ trigger_words: ['neverused'], callback_urls: [`${world.receiver.url}/team`] });
    const priv = await newChannel(world.admin, world.team, 'P');
    const pub = await newChannel(world.admin, world.team, 'O');
    const secret = await upload(world.admin, priv.id, 'secret-plan.txt', randomBytes(64));
    await postIn(world.admin, priv.id, 'private file', { file_ids: [String(secret.id)] });
    const open = await upload(world.admin, pub.id, 'open.txt', randomBytes(32));
    await postIn(world.admin, pub.id, 'public file', { file_ids: [String(open.id)] });
    await eventually('the public file', () => at('/team')[0]);
    await sleep(400);
    const bodies = at('/team').map((r) => verified(hook, r));
    assert.equal(bodies.length, 1, JSON.stringify(bodies));
    assert.equal(bodies[0]?.data.file_info.id, open.id);
    assert.ok(!JSON.stringify(bodies).includes('secret-plan'));
  });

  it('when a hook hears only posted, then files do not fire file_uploaded at it', async () => {
    const chan = await newChannel(world.admin, world.team, 'O');
    await createHook({ channel_id: chan.id, callback_urls: [`${world.receiver.url}/posted`], event_types: ['posted'] });
    const file = await upload(world.admin, chan.id, 'x.txt', Buffer.from('x'));
    await postIn(world.admin, chan.id, 'with a file', { file_ids: [String(file.id)] });
    await eventually('the posted delivery', () => at('/posted')[0]);
    await sleep(400);
    assert.equal(at('/posted').length, 1);
    assert.equal((JSON.parse(at('/posted')[0]?.body ?? '{}') as { file_ids?: string }).file_ids, String(file.id));
  });

  it('when a bot hook hears file_uploaded, then files in its DMs and its private channels reach it, and never where the bot is not a member', async () => {
    const bot = await teamBot(world.target.url, world.admin, world.team);
    const hook = await createHook({ bot_user_id: bot.id, callback_urls: [`${world.receiver.url}/bot`] });
    const member = world.member;
    const withBot = await newChannel(world.admin, world.team, 'P');
    const withoutBot = await newChannel(world.admin, world.team, 'P');
    for (const c of [withBot, withoutBot]) await world.admin.client.addToChannel(member.id, c.id);
    await world.admin.client.addToChannel(bot.id, withBot.id);
    const dm = await member.client.createDirectChannel([member.id, bot.id]);
    const hidden = await upload(member, withoutBot.id, 'not-for-bots.txt', Buffer.from('hidden'));
    await postIn(member, withoutBot.id, 'no bot here', { file_ids: [String(hidden.id)] });
    const shared = await upload(member, withBot.id, 'for-the-bot.txt', Buffer.from('shared'));
    await postIn(member, withBot.id, 'bot is here', { file_ids: [String(shared.id)] });
    const direct = await upload(member, dm.id, 'direct.txt', Buffer.from('direct'));
    await postIn(member, dm.id, 'for you, bot', { file_ids: [String(direct.id)] });
    await eventually('two bot deliveries', () => (at('/bot').length >= 2 ? at('/bot') : undefined));
    await sleep(400);
    const bodies = at('/bot').map((r) => verified(hook, r));
    assert.deepEqual(bodies.map((b) => b.data.file_info.id).sort(), [String(shared.id), String(direct.id)].sort());
    assert.ok(!JSON.stringify(bodies).includes('not-for-bots'));
    const dmEvent = bodies.find((b) => b.data.file_info.id === direct.id);
    assert.equal(dmEvent?.data.channel_id, dm.id);
    assert.equal(dmEvent?.data.team_id, '');
  });
});
