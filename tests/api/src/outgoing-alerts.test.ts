import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from './support/eventually';
import { patchConfig } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertJson, raw } from './support/http';
import { waitForPost } from './support/incoming-hooks';
import { postIn } from './support/posts-fixtures';

interface HookJson {
  id: string;
  token: string;
  disabled_at: number;
}

describe('operational alerts: DMs from the switchyard bot and integration events', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let dmId: string;

  before(async () => {
    world = await givenIntegrationWorld();
    const bot = await raw(world.target.url, 'GET', '/api/v4/users/username/switchyard', { token: world.admin.token });
    assertJson(bot, 200);
    const dm = await raw(world.target.url, 'POST', '/api/v4/channels/direct', { token: world.admin.token, body: [world.admin.user.id, (bot.json as { id: string }).id] });
    dmId = (dm.json as { id: string }).id;
  });
  after(async () => {
    await patchConfig(world.admin.client, { DeliverySettings: { RetryBackoffSeconds: [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200], DisableAfterDeadDeliveries: 10 } });
    await world?.stop();
  });

  const createHook = async (body: Record<string, unknown>): Promise<HookJson> => {
    const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body: { team_id: world.team.id, content_type: 'application/json', ...body } });
    assertJson(res, 201);
    return res.json as HookJson;
  };

  it('when a receiver answers 410, then the creator gets one DM naming the hook and the origin only, and admin hooks hear integration_disabled', async () => {
    const listener = await createHook({ trigger_words: ['never-posted'], callback_urls: [`${world.receiver.url}/admin-events`], event_types: ['integration_disabled', 'delivery_dead'] });
    const gone = await createHook({ channel_id: world.channel.id, trigger_words: ['gone'], callback_urls: [`${world.receiver.url}/gone/secret-path?key=s3cret`], display_name: 'Gone hook' });
    world.receiver.respond((r) => (r.path.startsWith('/gone') ? { status: 410 } : {}));
    await postIn(world.member, world.channel.id, 'gone now');
    const dm = await waitForPost(world.target.url, world.admin.token, dmId, (p) => p.message.includes(gone.id));
    assert.match(dm.message, /Gone hook/);
    assert.match(dm.message, /410/);
    assert.ok(dm.message.includes(world.receiver.url), dm.message);
    assert.ok(!dm.message.includes('secret-path') && !dm.message.includes('s3cret') && !dm.message.includes(gone.token), dm.message);
    const event = await world.receiver.waitFor((r) => r.path === '/admin-events' && r.body.includes(gone.id));
    const body = JSON.parse(event.body) as { type: string; token: string; data: Record<string, unknown> };
    assert.equal(body.type, 'integration_disabled');
    assert.equal(body.token, listener.token);
    assert.deepEqual(body.data, { hook_id: gone.id, hook_type: 'outgoing', reason: 'the receiver answered 410 Gone', origin: world.receiver.url });
    world.receiver.respond(() => ({}));
  });

  it('when a delivery goes dead, then the creator is told with the delivery id, once per hook per hour', async () => {
    await patchConfig(world.admin.client, { DeliverySettings: { RetryBackoffSeconds: [] } });
    const failing = await createHook({ channel_id: world.channel.id, trigger_words: ['boom'], callback_urls: [`${world.receiver.url}/boom`], display_name: 'Boom hook' });
    world.receiver.respond((r) => (r.path === '/boom' ? { status: 500 } : {}));
    await postIn(world.member, world.channel.id, 'boom one');
    const dm = await waitForPost(world.target.url, world.admin.token, dmId, (p) => p.message.includes(failing.id));
    assert.match(dm.message, /500/);
    const dead = await world.receiver.waitFor((r) => r.path === '/admin-events' && r.body.includes('"delivery_dead"') && r.body.includes(failing.id));
    assert.equal((JSON.parse(dead.body) as { data: { event_type: string } }).data.event_type, 'posted');
    await postIn(world.member, world.channel.id, 'boom two');
    await eventually('the second delivery dead', () => world.receiver.requests.filter((r) => r.path === '/boom').length >= 2 || undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const posts = (await raw(world.target.url, 'GET', `/api/v4/channels/${dmId}/posts`, { token: world.admin.token })).json as { posts: Record<string, { message: string }> };
    assert.equal(Object.values(posts.posts).filter((p) => p.message.includes(failing.id)).length, 1);
    world.receiver.respond(() => ({}));
  });

  it('when a hook\'s newest DisableAfterDeadDeliveries deliveries are all dead, then it is disabled, its creator gets the disable DM and admin hooks hear integration_disabled', async () => {
    await patchConfig(world.admin.client, { DeliverySettings: { RetryBackoffSeconds: [], DisableAfterDeadDeliveries: 2 } });
    const bad = await raw(world.target.url, 'PUT', '/api/v4/config/patch', { token: world.admin.token, body: { DeliverySettings: { DisableAfterDeadDeliveries: -1 } } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal((bad.json as { id: string }).id, 'model.config.is_valid.delivery_disable_after_dead.app_error');
    const failing = await createHook({ channel_id: world.channel.id, trigger_words: ['sink'], callback_urls: [`${world.receiver.url}/sink`], display_name: 'Sink hook' });
    world.receiver.respond((r) => (r.path === '/sink' ? { status: 503 } : {}));
    await postIn(world.member, world.channel.id, 'sink one');
    await eventually('the first delivery dead', async () => {
      const log = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${failing.id}/deliveries`, { token: world.admin.token })).json as { status: string }[];
      return log.length === 1 && log[0]?.status === 'dead' ? true : undefined;
    });
    const still = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${failing.id}`, { token: world.admin.token })).json as HookJson;
    assert.equal(still.disabled_at, 0, 'one dead delivery is below the threshold of 2');
    await postIn(world.member, world.channel.id, 'sink two');
    const disabled = await eventually('the hook disabled', async () => {
      const got = (await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${failing.id}`, { token: world.admin.token })).json as HookJson;
      return got.disabled_at > 0 ? got : undefined;
    });
    assert.ok(disabled.disabled_at > 0);
    const dm = await waitForPost(world.target.url, world.admin.token, dmId, (p) => p.message.includes(failing.id) && p.message.includes('disabled'));
    assert.match(dm.message, /Sink hook/);
    assert.match(dm.message, /last 2 deliveries/);
    const event = await world.receiver.waitFor((r) => r.path === '/admin-events' && r.body.includes('"integration_disabled"') && r.body.includes(failing.id));
    assert.equal((JSON.parse(event.body) as { data: { reason: string } }).data.reason, 'its last 2 deliveries failed for good');
    const calls = world.receiver.requests.filter((r) => r.path === '/sink').length;
    await postIn(world.member, world.channel.id, 'sink three');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(world.receiver.requests.filter((r) => r.path === '/sink').length, calls, 'a disabled hook is not called');
    world.receiver.respond(() => ({}));
  });
});
