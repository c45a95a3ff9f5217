import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/eventually';
import { patchConfig, type AdminSession } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, assertJson, raw } from './support/http';
import { waitForPost } from './support/incoming-hooks';
import type { OutgoingReceiver } from './support/outgoing-receiver';
import { postIn, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface HookJson {
  id: string;
  token: string;
  signing_secret: string;
  disabled_at: number;
}

interface Delivery {
  readonly id: string;
  readonly status: string;
  readonly post_id: string;
  readonly last_error: string;
}

describe('outgoing webhooks, end to end', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let target: Target;
  let admin: AdminSession;
  let receiver: OutgoingReceiver;
  let team: Team;
  let channel: Channel;
  let member: Actor;

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: { EnablePostUsernameOverride: true } });
    ({ target, admin, receiver, team, channel, member } = world);
  });
  after(() => world?.stop());

  const createHook = async (body: Record<string, unknown>): Promise<HookJson> => {
    const res = await raw(target.url, 'POST', '/api/v4/hooks/outgoing', { token: admin.token, body: { team_id: team.id, ...body } });
    assertJson(res, 201);
    return res.json as HookJson;
  };
  /** The hook's delivery log once its newest delivery has `status` (deliveries are recorded asynchronously). */
  const deliveryLog = (hookId: string, status: string): Promise<Delivery[]> =>
    eventually(`hook ${hookId}'s newest delivery ${status}`, async () => {
      const log = (await raw(target.url, 'GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { token: admin.token })).json as Delivery[];
      return log[0]?.status === status ? log : undefined;
    });

  it('when a post matches a JSON hook, then the receiver gets the reference fields and its comment answer is posted in the thread', async () => {
    const hook = await createHook({ channel_id: channel.id, trigger_words: ['ping'], callback_urls: [`${receiver.url}/json`], content_type: 'application/json', display_name: 'Pinger', username: 'pinger' });
    receiver.respond((r) => (r.path === '/json' ? { body: JSON.stringify({ text: 'pong', response_type: 'comment' }) } : {}));
    const post = await postIn(member, channel.id, 'ping me');
    const request = await receiver.waitFor((r) => r.path === '/json' && r.body.includes(post.id));
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'application/json');
    assert.equal(body.token, hook.token);
    assert.equal(body.team_id, team.id);
    assert.equal(body.team_domain, team.name);
    assert.equal(body.channel_id, channel.id);
    assert.equal(body.channel_name, channel.name);
    assert.equal(body.timestamp, post.create_at);
    assert.equal(body.user_id, member.id);
    assert.equal(body.user_name, member.username);
    assert.equal(body.text, 'ping me');
    assert.equal(body.trigger_word, 'ping');
    assert.equal(body.file_ids, '');
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    assert.doesNotThrow(() => new Webhook(hook.signing_secret).verify(request.body, headers));
    const reply = await waitForPost(target.url, admin.token, channel.id, (p) => p.message === 'pong');
    assert.equal(reply.root_id, post.id);
    assert.equal(reply.user_id, admin.user.id);
    assert.equal(reply.props.from_webhook, 'true');
    assert.equal(reply.props.webhook_display_name, 'Pinger');
    assert.equal(reply.props.override_username, 'pinger');
  });

  it('when a form hook fires, then the timestamp is in seconds and the delivery log shows it delivered', async () => {
    const hook = await createHook({ trigger_words: ['formy'], trigger_when: 1, callback_urls: [`${receiver.url}/form`] });
    const post = await postIn(member, channel.id, 'formyness');
    const request = await receiver.waitFor((r) => r.path === '/form' && r.body.includes(post.id));
    const form = new URLSearchParams(request.body);
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(form.get('timestamp'), String(Math.floor(post.create_at / 1000)));
    assert.equal(form.get('trigger_word'), 'formy');
    const log = await deliveryLog(hook.id, 'delivered');
    assert.equal(log[0]?.post_id, post.id);
    assert.equal(log[0]?.id, request.headers['webhook-id']);
  });

  it('when the delivery log shows a delivery delivered, then its reply posts (a message split in two) are readable at once, with no waiting for the posts', async () => {
    const hook = await createHook({ channel_id: channel.id, trigger_words: ['splitreply'], callback_urls: [`${receiver.url}/split`], content_type: 'application/json' });
    const long = `${'s'.repeat(16383)}end`;
    receiver.respond((r) => (r.path === '/split' ? { body: JSON.stringify({ text: long, response_type: 'comment' }) } : {}));
    const post = await postIn(member, channel.id, 'splitreply now');
    await receiver.waitFor((r) => r.path === '/split' && r.body.includes(post.id));
    // Wait for the delivery to be recorded (asynchronous by nature); the reply is then read once, never polled.
    await deliveryLog(hook.id, 'delivered');
    const thread = await raw(target.url, 'GET', `/api/v4/posts/${post.id}/thread`, { token: admin.token });
    assertJson(thread, 200);
    const { order, posts } = thread.json as { order: string[]; posts: Record<string, { message: string; root_id: string; create_at: number }> };
    const replies = order.flatMap((id) => (posts[id]?.root_id === post.id ? [posts[id]] : [])).sort((a, b) => a.create_at - b.create_at);
    assert.deepEqual(replies.map((p) => p.message), ['s'.repeat(16383), 'end']);
  });

  it('when a hook is created with the official client and its token regenerated, then both work', async () => {
    const created = await admin.client.createOutgoingWebhook({ team_id: team.id, channel_id: channel.id, trigger_words: ['client'], callback_urls: [`${receiver.url}/client`], display_name: 'c' } as never);
    assert.match(created.token, /^[a-z0-9]{26}$/);
    const regenerated = await admin.client.regenOutgoingHookToken(created.id);
    assert.notEqual(regenerated.token, created.token);
    const listed = await admin.client.getOutgoingWebhooks('', team.id);
    assert.ok(listed.some((h) => h.id === created.id));
    await admin.client.removeOutgoingWebhook(created.id);
  });

  it('when the callback is on 127.0.0.1 and the allow-list is empty, then nothing is sent and the delivery is dead as blocked', async () => {
    const hook = await createHook({ trigger_words: ['ssrf'], callback_urls: [`${receiver.url}/ssrf`] });
    await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '' } });
    try {
      const post = await postIn(member, channel.id, 'ssrf attempt');
      const log = await deliveryLog(hook.id, 'dead');
      assert.equal(log[0]?.post_id, post.id);
      assert.match(log[0]?.last_error ?? '', /blocked/);
      assert.equal(receiver.requests.filter((r) => r.path === '/ssrf').length, 0);
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
    }
  });

  it('when a plain member creates a hook or the feature is off, then 403 and 501', async () => {
    const denied = await raw(target.url, 'POST', '/api/v4/hooks/outgoing', { token: member.token, body: { team_id: team.id, channel_id: channel.id, callback_urls: ['http://example.com'] } });
    assertAppError(denied, 403, 'api.context.permissions.app_error');
    await patchConfig(admin.client, { ServiceSettings: { EnableOutgoingWebhooks: false } });
    try {
      const off = await raw(target.url, 'GET', '/api/v4/hooks/outgoing', { token: admin.token });
      assertAppError(off, 501, 'api.outgoing_webhook.disabled.app_error');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { EnableOutgoingWebhooks: true } });
    }
  });
});
