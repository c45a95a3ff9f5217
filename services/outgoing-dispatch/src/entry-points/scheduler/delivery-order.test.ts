import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { eventually, fastDelivery, harness, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

interface WireDelivery {
  post_id: string;
  status: string;
  last_error: string;
}

describe('DeliverySettings.OrderHoldSeconds: a retried delivery is not overtaken by a later one of its hook, channel and URL', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let author: InternalUser;

  before(async () => {
    h = await harness({ scanIntervalMs: 20 });
    receiver = await startReceiver();
    teamId = h.world.team('order');
    admin = { id: h.world.user('oadmin').id, roles: 'system_admin system_user' };
    author = h.world.user('obob', { teamId });
  });
  after(async () => {
    await h.stop();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    h.setConfig((config) => {
      fastDelivery(config);
      config.DeliverySettings.RetryBackoffSeconds = [0.4, 0.4];
    });
  });

  /** A channel hook hearing more than posted (ordered); the first call for the first post fails once. */
  const scenario = async (path: string): Promise<{ first: string; second: string; hookId: string }> => {
    const channel: InternalChannel = h.world.channel(teamId, 'O');
    const hook = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, channel_id: channel.id, callback_urls: [`${receiver.url}${path}`], event_types: ['posted', 'post_edited'] } })).json() as { id: string };
    const first = h.world.post(channel, author.id, 'first');
    const second = h.world.post(channel, author.id, 'second');
    let failedOnce = false;
    receiver.respond((r) => {
      if (!failedOnce && r.body.includes(first.id)) {
        failedOnce = true;
        return { status: 503 };
      }
      return { status: 200 };
    });
    await h.publishPost(first, channel, author);
    await h.publishPost(second, channel, author);
    return { first: first.id, second: second.id, hookId: hook.id };
  };
  const callsTo = (path: string, first: string): string[] => receiver.requests.filter((r) => r.path === path).map((r) => (r.body.includes(first) ? 'first' : 'second'));

  it('when the first post\'s delivery fails once, then the second waits (shown in the log) and arrives only after the first', async () => {
    const { first, second, hookId } = await scenario('/ordered');
    const waiting = await eventually(async () => {
      const log = (await h.request('GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { as: admin })).json() as WireDelivery[];
      return log.find((d) => d.post_id === second && d.last_error.includes('(order)'));
    }, 10_000, 'the second waiting for the first');
    assert.equal(waiting.status, 'pending');
    await eventually(() => receiver.requests.filter((r) => r.path === '/ordered').length >= 3 || undefined, 10_000, 'three calls');
    assert.deepEqual(callsTo('/ordered', first), ['first', 'first', 'second']);
    assert.ok(second);
  });

  it('when OrderHoldSeconds is 0, then only first attempts are ordered and the second overtakes the retried first', async () => {
    h.setConfig((config) => {
      config.DeliverySettings.OrderHoldSeconds = 0;
    });
    const { first } = await scenario('/unordered');
    await eventually(() => receiver.requests.filter((r) => r.path === '/unordered').length >= 3 || undefined, 10_000, 'three calls');
    assert.deepEqual(callsTo('/unordered', first), ['first', 'second', 'first']);
  });

  it('when the first keeps failing past OrderHoldSeconds, then the second goes anyway (the wait is bounded)', async () => {
    h.setConfig((config) => {
      config.DeliverySettings.OrderHoldSeconds = 1;
      config.DeliverySettings.RetryBackoffSeconds = [5];
    });
    const { first, second, hookId } = await scenario('/bounded');
    const arrived = await eventually(() => receiver.requests.find((r) => r.path === '/bounded' && r.body.includes(second)), 10_000, 'the second after the hold');
    assert.ok(arrived);
    // The second's end must not wake the first early: it keeps its 5 s backoff.
    await sleep(500);
    assert.deepEqual(callsTo('/bounded', first), ['first', 'second'], 'the first is still waiting for its retry');
    const log = (await h.request('GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { as: admin })).json() as WireDelivery[];
    assert.equal(log.find((d) => d.post_id === first)?.status, 'failed');
  });
});
