import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { Topics, type InternalChannel } from '@switchyard/contracts';
import { EcdsaTriggerIds } from '../../adapters/crypto/ecdsa-trigger-ids';
import { assertError } from '../../test-support/assert-error';
import { fastDelivery, SECRET, type Caller, type Harness } from '../../test-support/harness';
import { integrationWorld, type IntegrationWorld } from '../../test-support/integration-world';
import type { Receiver } from '../../test-support/receiver';

const SIGNING = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('interactive actions and dialogs', () => {
  let world: IntegrationWorld;
  let h: Harness;
  let receiver: Receiver;
  let channel: InternalChannel;
  let clicker: Caller & { username: string };
  let outsider: Caller;
  let teamId: string;

  before(async () => {
    world = await integrationWorld({ signingSecret: SIGNING, team: 'act', channel: { type: 'O', name: 'actions' }, member: 'clicker' });
    ({ h, receiver, channel, teamId, member: clicker } = world);
    outsider = { id: h.world.user('outsider').id, roles: 'system_user' };
  });
  after(() => world.stop());
  beforeEach(() => world.reset());

  const postWithActions = (target = channel) =>
    h.world.post(target, clicker.id, 'pick one', {
      attachments: [
        {
          text: 'choose',
          actions: [
            { id: 'approve', type: 'button', name: 'Approve', integration: { url: `${receiver.url}/act`, context: { ticket: 42, nested: { a: [1, 2] } } } },
            { id: 'menu', type: 'select', name: 'Pick', options: [{ text: 'One', value: 'one' }], integration: { url: `${receiver.url}/menu`, context: { k: 'v' } } },
            { id: 'people', type: 'select', data_source: 'users', integration: { url: `${receiver.url}/people` } },
            { id: 'nourl', type: 'button', name: 'Nothing' },
          ],
        },
      ],
    });
  const click = (postId: string, actionId: string, as: Caller = clicker, body?: unknown) => h.request('POST', `/api/v4/posts/${postId}/actions/${actionId}`, { as, ...(body !== undefined ? { body } : {}) });

  it('when a button is pressed, then the integration gets the reference request with the context unchanged, signed', async () => {
    const post = postWithActions();
    const res = await click(post.id, 'approve');
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json();
    assert.equal(answer.status, 'OK');
    assert.match(answer.trigger_id, /^[a-z0-9]{26}$/);
    const request = receiver.requests.at(-1);
    assert.ok(request);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'application/json');
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['user_id', 'user_name', 'channel_id', 'channel_name', 'team_id', 'team_domain', 'post_id', 'trigger_id', 'type', 'context']);
    assert.equal(body.user_id, clicker.id);
    assert.equal(body.user_name, clicker.username);
    assert.equal(body.channel_name, 'actions');
    assert.equal(body.team_id, teamId);
    assert.equal(body.team_domain, 'act');
    assert.equal(body.post_id, post.id);
    assert.equal(body.type, 'button');
    assert.deepEqual(body.context, { ticket: 42, nested: { a: [1, 2] } });
    const decoded = Buffer.from(String(body.trigger_id), 'base64').toString('utf8').split(':');
    assert.equal(decoded.length, 4);
    assert.equal(decoded[0], answer.trigger_id);
    assert.equal(decoded[1], clicker.id);
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    assert.doesNotThrow(() => new Webhook(SIGNING).verify(request.body, headers));
  });

  it('when a menu option is picked, then context.selected_option carries it, and data_source is passed for users menus', async () => {
    const post = postWithActions();
    assert.equal((await click(post.id, 'menu', clicker, { selected_option: 'one' })).statusCode, 200);
    const menu = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
    assert.deepEqual(menu.context, { k: 'v', selected_option: 'one' });
    assert.equal(menu.type, 'select');
    assert.equal((await click(post.id, 'people', clicker, { selected_option: clicker.id })).statusCode, 200);
    const people = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
    assert.equal(people.data_source, 'users');
    assert.deepEqual(people.context, { selected_option: clicker.id });
  });

  it('when the integration answers update, then the post is updated through posts, keeping props when update.props is absent', async () => {
    const post = postWithActions();
    receiver.respond(() => ({ body: JSON.stringify({ update: { message: 'Approved by @clicker' }, ephemeral_text: 'done' }) }));
    assert.equal((await click(post.id, 'approve')).statusCode, 200);
    const update = h.world.postUpdates.find((u) => u.postId === post.id);
    assert.deepEqual(update?.body, { message: 'Approved by @clicker' });
    receiver.respond(() => ({ body: JSON.stringify({ update: { message: 'x', props: { attachments: [] } } }) }));
    await click(post.id, 'approve');
    assert.deepEqual(h.world.postUpdates.filter((u) => u.postId === post.id).at(-1)?.body, { message: 'x', props: { attachments: [] } });
  });

  it('when the integration answers ephemeral_text, then an ephemeral.post for the clicking user only, in the post thread, goes on realtime.events', async () => {
    const post = postWithActions();
    const before = h.bus.published.length;
    receiver.respond(() => ({ body: JSON.stringify({ ephemeral_text: 'only for you' }) }));
    assert.equal((await click(post.id, 'approve')).statusCode, 200);
    const sent = h.bus.published.slice(before).filter((p) => p.topic === Topics.realtimeEvents);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.key, clicker.id);
    assert.equal(sent[0]?.value.type, 'ephemeral.post');
    const payload = sent[0]?.value.payload as { user_id: string; post: { type: string; message: string; user_id: string; channel_id: string; root_id: string; id: string } };
    assert.equal(payload.user_id, clicker.id);
    assert.equal(payload.post.type, 'system_ephemeral');
    assert.equal(payload.post.message, 'only for you');
    assert.equal(payload.post.user_id, clicker.id);
    assert.equal(payload.post.channel_id, channel.id);
    assert.equal(payload.post.root_id, post.id);
    assert.notEqual(payload.post.id, post.id);
  });

  it('when the integration answers 429 or 503, then the status passes through with Retry-After capped; another 5xx is 502 (11.10)', async () => {
    const post = postWithActions();
    const cases: [{ status: number; headers?: Record<string, string> }, number, string | undefined][] = [
      [{ status: 429, headers: { 'Retry-After': '30' } }, 429, '30'],
      [{ status: 429, headers: { 'Retry-After': '999999' } }, 429, '3600'],
      [{ status: 503, headers: { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() } }, 503, undefined],
      [{ status: 502 }, 502, undefined],
      [{ status: 500 }, 502, undefined],
    ];
    for (const [answer, status, retryAfter] of cases) {
      receiver.respond(() => answer);
      const res = await click(post.id, 'approve');
      assert.equal(res.statusCode, status, JSON.stringify(answer));
      assert.equal(res.json().id, 'api.post.do_action.action_integration.app_error');
      if (retryAfter !== undefined) assert.equal(res.headers['retry-after'], retryAfter, JSON.stringify(answer));
      else if (answer.headers?.['Retry-After'] !== undefined) {
        const seconds = Number(res.headers['retry-after']);
        assert.ok(seconds > 100 && seconds <= 121, `an HTTP date becomes seconds: ${String(res.headers['retry-after'])}`);
      } else assert.equal(res.headers['retry-after'], undefined);
    }
  });

  it('when the integration fails, answers 4xx, 3xx, non-200 or non-JSON, then 400 action_integration', async () => {
    const post = postWithActions();
    for (const answer of [{ status: 404 }, { status: 302 }, { status: 201, body: '{}' }, { status: 200, body: 'not json' }]) {
      receiver.respond(() => answer);
      const res = await click(post.id, 'approve');
      assert.equal(res.statusCode, 400, JSON.stringify(answer));
      assert.equal(res.json().id, 'api.post.do_action.action_integration.app_error');
    }
  });

  it('when the integration URL is internal and not allow-listed, then the call is refused with 400', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.AllowedUntrustedInternalConnections = '';
    });
    try {
      const before = receiver.requests.length;
      const res = await click(postWithActions().id, 'approve');
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().id, 'api.post.do_action.action_integration.app_error');
      assert.equal(receiver.requests.length, before);
    } finally {
      h.setConfig(fastDelivery);
    }
  });

  it('when the action is unknown, has no integration or an invalid id, then 404 action_id', async () => {
    const post = postWithActions();
    for (const id of ['missing', 'nourl', 'bad.id']) {
      const res = await click(post.id, id);
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json().id, 'api.post.do_action.action_id.app_error');
    }
  });

  it('when the caller cannot read the channel or the post does not exist, then 403; a bad post id is 400', async () => {
    const privateChannel = h.world.channel(teamId, 'P');
    const hidden = postWithActions(privateChannel);
    assert.equal((await click(hidden.id, 'approve')).statusCode, 403);
    assert.equal((await click(postWithActions().id, 'approve', outsider)).statusCode, 403);
    assert.equal((await click('a'.repeat(26), 'approve')).statusCode, 403);
    assert.equal((await click('nope', 'approve')).statusCode, 400);
    assert.equal((await h.request('POST', `/api/v4/posts/${hidden.id}/actions/approve`)).statusCode, 401);
  });

  it('when a team member who is not in the public channel presses, then it works (read_public_channel)', async () => {
    const other = h.world.user('teammate', { teamId });
    const res = await click(postWithActions().id, 'approve', { id: other.id, roles: 'system_user' });
    assert.equal(res.statusCode, 200);
  });

  it('when a dialog is opened with the trigger id, then OK; expired, tampered or missing url are refused', async () => {
    const post = postWithActions();
    await click(post.id, 'approve');
    const triggerId = String((JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as { trigger_id: string }).trigger_id);
    const dialog = { callback_id: 'c', title: 'Title', elements: [] };
    const ok = await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: triggerId, url: 'http://example.com/dialog', dialog } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { status: 'OK' });
    const opened = h.bus.published.filter((p) => p.topic === Topics.realtimeEvents && p.value.type === 'dialog.open').at(-1);
    assert.equal(opened?.key, clicker.id);
    const clientTrigger = Buffer.from(triggerId, 'base64').toString('utf8').split(':')[0];
    const canonical = { callback_id: 'c', title: 'Title', introduction_text: '', icon_url: '', elements: [], submit_label: '', notify_on_cancel: false, state: '' };
    assert.deepEqual(opened?.value.payload, { user_id: clicker.id, dialog: { trigger_id: clientTrigger, url: 'http://example.com/dialog', dialog: canonical } });

    const noUrl = await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: triggerId, dialog } });
    assert.equal(noUrl.statusCode, 400);
    assert.equal(noUrl.json().id, 'api.context.invalid_body_param.app_error');

    const expired = new EcdsaTriggerIds(SECRET).issue('a'.repeat(26), clicker.id, Date.now() - 31_000);
    const old = await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: expired, url: 'http://example.com/d', dialog } });
    assert.equal(old.statusCode, 400);
    assert.equal(old.json().id, 'interactive_message.decode_trigger_id.expired');

    const [client, user, millis] = Buffer.from(triggerId, 'base64').toString('utf8').split(':');
    const forged = Buffer.from(`${client}:${outsider.id}:${millis}:${Buffer.alloc(70).toString('base64')}`).toString('base64');
    const bad = await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: forged, url: 'http://example.com/d', dialog } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().id, 'interactive_message.decode_trigger_id.verify_signature_failed');
    assert.ok(user);

    const otherKey = new EcdsaTriggerIds('another-secret-entirely-0123456789').issue('b'.repeat(26), clicker.id, Date.now());
    assert.equal((await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: otherKey, url: 'http://example.com/d', dialog } })).json().id, 'interactive_message.decode_trigger_id.verify_signature_failed');
    assert.equal((await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: Buffer.from('a:b').toString('base64'), url: 'http://e/d' } })).json().id, 'interactive_message.decode_trigger_id.missing_data');
    assert.equal((await h.request('POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: '%%%', url: 'http://e/d' } })).json().id, 'interactive_message.decode_trigger_id.base64_decode_failed');
    assertError(await h.request('POST', '/api/v4/actions/dialogs/open', { raw: '[1,2]' }), 400, 'api.context.invalid_body_param.app_error');
  });
});
