import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { AdminSession } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, raw } from './support/http';
import type { OutgoingReceiver } from './support/outgoing-receiver';
import { postIn, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

describe('interactive actions, end to end', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let target: Target;
  let admin: AdminSession;
  let receiver: OutgoingReceiver;
  let channel: Channel;
  let member: Actor;

  before(async () => {
    world = await givenIntegrationWorld();
    ({ target, admin, receiver, channel, member } = world);
  });
  after(() => world?.stop());

  it('when a button is pressed with the official client, then the integration gets the context and its update replaces the post', async () => {
    const post = await postIn(admin, channel.id, 'approve?', {
      props: { attachments: [{ text: 'Deploy?', actions: [{ id: 'yes', name: 'Yes', type: 'button', integration: { url: `${receiver.url}/yes`, context: { deploy: 7 } } }] }] },
    });
    const shown = (post.props.attachments as { actions: { id: string; integration?: unknown }[] }[])[0]?.actions[0];
    assert.equal(shown?.id, 'yes');
    assert.equal(shown?.integration, undefined, 'integrations are stripped from what clients see');
    receiver.respond(() => ({ body: JSON.stringify({ update: { message: 'Deployed by a click' } }) }));
    const answer = await member.client.doPostAction(post.id, 'yes');
    assert.equal((answer as { status?: string }).status, 'OK');
    const request = await receiver.waitFor((r) => r.path === '/yes');
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.deepEqual(body.context, { deploy: 7 });
    assert.equal(body.user_id, member.id);
    assert.equal(body.post_id, post.id);
    assert.equal(typeof body.trigger_id, 'string');
    const updated = await raw(target.url, 'GET', `/api/v4/posts/${post.id}`, { token: admin.token });
    assert.equal(updated.json.message, 'Deployed by a click');

    const dialog = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { token: member.token, body: { trigger_id: body.trigger_id, url: `${receiver.url}/dialog`, dialog: { callback_id: 'x', title: 'T', elements: [] } } });
    assert.equal(dialog.status, 200, dialog.text);
    // Integrations open dialogs from their own servers without a session (the trigger id authorises it); a
    // stale token they happen to send is ignored, as on the reference's session-optional routes.
    const sessionless = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { token: 'stale0token0of0an0integration', body: { trigger_id: body.trigger_id, url: `${receiver.url}/dialog`, dialog: { callback_id: 'y', title: 'T', elements: [] } } });
    assert.equal(sessionless.status, 200, sessionless.text);
  });

  it('when a menu option is picked, then selected_option is in the context; an unknown action is 404', async () => {
    const post = await postIn(admin, channel.id, 'pick', {
      props: { attachments: [{ actions: [{ id: 'menu', name: 'Pick', type: 'select', options: [{ text: 'A', value: 'a' }], integration: { url: `${receiver.url}/menu`, context: { k: 1 } } }] }] },
    });
    receiver.respond(() => ({ body: '{}' }));
    await member.client.doPostAction(post.id, 'menu', 'a');
    const request = await receiver.waitFor((r) => r.path === '/menu');
    assert.deepEqual((JSON.parse(request.body) as { context: unknown }).context, { k: 1, selected_option: 'a' });
    const missing = await raw(target.url, 'POST', `/api/v4/posts/${post.id}/actions/nope`, { token: member.token, body: {} });
    assertAppError(missing, 404, 'api.post.do_action.action_id.app_error');
  });
});
