import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { eventually, fastDelivery, harness, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

interface WireDelivery {
  status: string;
  last_error: string;
  attempts: number;
  next_attempt_at: number;
}

describe('RateLimitSettings.OutgoingWebhookPerSec: a storm of one hook is delayed durably, never dropped', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let author: InternalUser;
  let channel: InternalChannel;

  before(async () => {
    h = await harness({ scanIntervalMs: 20 });
    h.setConfig((config) => {
      fastDelivery(config);
      config.RateLimitSettings.OutgoingWebhookPerSec = 5;
      config.RateLimitSettings.OutgoingWebhookMaxBurst = 0;
    });
    receiver = await startReceiver();
    teamId = h.world.team('storm');
    admin = { id: h.world.user('sadmin').id, roles: 'system_admin system_user' };
    author = h.world.user('sbob', { teamId });
    channel = h.world.channel(teamId, 'O');
  });
  after(async () => {
    await h.stop();
    await receiver.close();
  });

  it('when one hook fires 20 times at once over a limit of 5/s, then all 20 arrive, spread over seconds, and the waiting ones show in the log', async () => {
    const hook = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['storm'], callback_urls: [`${receiver.url}/storm`] } })).json() as { id: string };
    const other = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['calm'], callback_urls: [`${receiver.url}/calm`] } })).json() as { id: string };
    for (let i = 0; i < 20; i += 1) await h.publishPost(h.world.post(channel, author.id, `storm ${i}`), channel, author);
    await h.publishPost(h.world.post(channel, author.id, 'calm one'), channel, author);
    const log = (): Promise<WireDelivery[]> => h.request('GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries?per_page=100`, { as: admin }).then((r) => r.json() as WireDelivery[]);
    const waiting = await eventually(async () => (await log()).find((d) => d.status === 'pending' && d.last_error.startsWith('rate limited') && d.next_attempt_at > Date.now()), 10_000, 'a rate-limited delivery in the log');
    assert.equal(waiting.attempts, 0, 'waiting for the limit uses no attempt');
    await eventually(() => receiver.requests.some((r) => r.path === '/calm') || undefined, 5_000, 'the other hook, not limited by this one');
    await eventually(async () => ((await log()).filter((d) => d.status === 'delivered').length === 20 ? true : undefined), 30_000, 'all 20 delivered');
    const times = receiver.requests.filter((r) => r.path === '/storm').map((r) => r.at);
    assert.equal(times.length, 20, 'each exactly once');
    const span = Math.max(...times) - Math.min(...times);
    assert.ok(span >= 2000, `20 at 5/s take more than 2 s (took ${span} ms)`);
    assert.ok(other.id);
  });
});
