import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { eventually, fastDelivery, harness, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

interface WireDelivery {
  id: string;
  post_id: string;
  status: string;
  last_error: string;
}

describe('DeliverySettings.DisableAfterDeadDeliveries: a hook whose newest deliveries are all dead is disabled', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let author: InternalUser;
  let channel: InternalChannel;

  before(async () => {
    h = await harness({ scanIntervalMs: 20 });
    receiver = await startReceiver();
    teamId = h.world.team('threshold');
    admin = { id: h.world.user('tadmin').id, roles: 'system_admin system_user' };
    author = h.world.user('tbob', { teamId });
    channel = h.world.channel(teamId, 'O');
  });
  after(async () => {
    await h.stop();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    h.setConfig((config) => {
      fastDelivery(config);
      config.DeliverySettings.RetryBackoffSeconds = [];
      config.DeliverySettings.DisableAfterDeadDeliveries = 3;
    });
  });

  const hookFor = async (word: string) =>
    (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: [word], callback_urls: [`${receiver.url}/${word}`] } })).json() as { id: string };
  const deliveries = async (hookId: string) => (await h.request('GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { as: admin })).json() as WireDelivery[];
  const disabledAt = async (hookId: string) => ((await h.request('GET', `/api/v4/hooks/outgoing/${hookId}`, { as: admin })).json() as { disabled_at: number }).disabled_at;
  /** Posts the word and waits until that post's delivery is final (dead or delivered). */
  const fireAndSettle = async (hookId: string, word: string): Promise<WireDelivery> => {
    const post = h.world.post(channel, author.id, word);
    await h.publishPost(post, channel, author);
    return eventually(async () => (await deliveries(hookId)).find((d) => d.post_id === post.id && (d.status === 'dead' || d.status === 'delivered')), 20_000, 'a final delivery');
  };

  it('when the third delivery in a row goes dead, then the hook is disabled and the next post is not sent; enable clears it', async () => {
    const hook = await hookFor('down');
    receiver.respond(() => ({ status: 500 }));
    await fireAndSettle(hook.id, 'down');
    await fireAndSettle(hook.id, 'down');
    assert.equal(await disabledAt(hook.id), 0, 'two dead deliveries are below the threshold');
    await fireAndSettle(hook.id, 'down');
    const disabled = await eventually(async () => ((await disabledAt(hook.id)) > 0 ? true : undefined), 5_000, 'the hook disabled');
    assert.ok(disabled);
    const calls = receiver.requests.length;
    await h.publishPost(h.world.post(channel, author.id, 'down'), channel, author);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.requests.length, calls, 'a disabled hook calls nobody');
    assert.equal((await deliveries(hook.id)).length, 3);
    const enabled = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/enable`, { as: admin });
    assert.equal(enabled.json().disabled_at, 0);
  });

  it('when a delivery between dead ones arrives, then the dead ones are not in a row and the hook stays enabled', async () => {
    const hook = await hookFor('flap');
    receiver.respond(() => ({ status: 500 }));
    await fireAndSettle(hook.id, 'flap');
    await fireAndSettle(hook.id, 'flap');
    receiver.respond(() => ({ status: 200 }));
    await fireAndSettle(hook.id, 'flap');
    receiver.respond(() => ({ status: 500 }));
    await fireAndSettle(hook.id, 'flap');
    await fireAndSettle(hook.id, 'flap');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual((await deliveries(hook.id)).map((d) => d.status), ['dead', 'dead', 'delivered', 'dead', 'dead']);
    assert.equal(await disabledAt(hook.id), 0);
  });

  it('when the threshold is 0, then no number of dead deliveries disables the hook', async () => {
    h.setConfig((config) => {
      config.DeliverySettings.DisableAfterDeadDeliveries = 0;
    });
    const hook = await hookFor('never');
    receiver.respond(() => ({ status: 500 }));
    for (let i = 0; i < 4; i += 1) await fireAndSettle(hook.id, 'never');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await disabledAt(hook.id), 0);
  });
});
