import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { InternalChannel, InternalUser } from '@switchyard/contracts';
import { partitionFor } from '@switchyard/event-bus';
import { memoryRepositories } from '../../adapters/memory';
import { assertError } from '../../test-support/assert-error';
import { FakeWorld } from '../../test-support/fake-platform';
import { eventually, fastDelivery, harness, RecordingBus, SECRET, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

interface WireDelivery {
  id: string;
  status: string;
  attempts: number;
  last_status_code: number;
  last_error: string;
  next_attempt_at: number;
}

describe('durable delivery: retries, Retry-After, 410, dead letters, redelivery, breaker', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let author: InternalUser;
  let channel: InternalChannel;
  // Real time plus an offset a test may move forward (the secret overlap is a day long).
  const clock = { offset: 0, now: () => Date.now() + clock.offset };

  before(async () => {
    h = await harness({ scanIntervalMs: 20, clock });
    h.setConfig(fastDelivery);
    receiver = await startReceiver();
    teamId = h.world.team('faults');
    admin = { id: h.world.user('fadmin').id, roles: 'system_admin system_user' };
    author = h.world.user('bob', { teamId });
    channel = h.world.channel(teamId, 'O');
  });
  after(async () => {
    await h.stop();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    h.setConfig(fastDelivery);
  });

  const hookFor = async (word: string, path = `/${word}`) =>
    (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: [word], callback_urls: [`${receiver.url}${path}`] } })).json() as { id: string };
  const deliveries = async (hookId: string) => (await h.request('GET', `/api/v4/hooks/outgoing/${hookId}/deliveries`, { as: admin })).json() as WireDelivery[];
  const fire = (word: string) => h.publishPost(h.world.post(channel, author.id, word), channel, author);
  const settled = (hookId: string, status: string) => eventually(async () => (await deliveries(hookId)).find((d) => d.status === status), 20_000, `a ${status} delivery`);

  it('when the receiver is down for a while and comes back, then the delivery arrives and every attempt carries the same webhook-id', async () => {
    const hook = await hookFor('flaky');
    receiver.respond((_r, i) => (i < 2 ? { status: 503 } : { status: 200 }));
    await fire('flaky');
    const delivered = await settled(hook.id, 'delivered');
    assert.equal(delivered.attempts, 3);
    assert.equal(delivered.last_status_code, 200);
    const calls = receiver.requests.filter((r) => r.path === '/flaky');
    assert.equal(calls.length, 3);
    assert.equal(new Set(calls.map((r) => r.headers['webhook-id'])).size, 1);
    assert.equal(calls[0]?.headers['webhook-id'], delivered.id);
    assert.equal(new Set(calls.map((r) => r.body)).size, 1);
  });

  it('when every attempt fails, then after RetryBackoffSeconds is used up the delivery is dead', async () => {
    const hook = await hookFor('broken');
    receiver.respond(() => ({ status: 500 }));
    await fire('broken');
    const dead = await settled(hook.id, 'dead');
    assert.equal(dead.attempts, 4);
    assert.equal(dead.last_status_code, 500);
    assert.equal(dead.next_attempt_at, 0);
  });

  it('when the receiver answers 429 with Retry-After, then the next attempt waits that long', async () => {
    const hook = await hookFor('slowdown');
    receiver.respond((_r, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 }));
    await fire('slowdown');
    const failed = await settled(hook.id, 'failed');
    assert.equal(failed.last_status_code, 429);
    const first = receiver.requests.find((r) => r.path === '/slowdown');
    assert.ok(first);
    assert.ok(failed.next_attempt_at - Date.now() > 500, `next attempt in ${failed.next_attempt_at - Date.now()} ms`);
    await settled(hook.id, 'delivered');
  });

  it('when the receiver answers 410 Gone, then the hook is disabled, the delivery dead, and enable clears it', async () => {
    const hook = await hookFor('gone');
    receiver.respond(() => ({ status: 410 }));
    await fire('gone');
    const dead = await settled(hook.id, 'dead');
    assert.equal(dead.last_status_code, 410);
    const disabled = (await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}`, { as: admin })).json() as { disabled_at: number };
    assert.ok(disabled.disabled_at > 0);
    await fire('gone');
    receiver.respond(() => ({ status: 200 }));
    const enabled = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/enable`, { as: admin });
    assert.equal(enabled.statusCode, 200);
    assert.equal(enabled.json().disabled_at, 0);
    await fire('gone');
    await settled(hook.id, 'delivered');
    assert.equal(receiver.requests.filter((r) => r.path === '/gone').length, 2);
  });

  it('when a dead delivery is redelivered, then it is queued again with the same id and arrives', async () => {
    const hook = await hookFor('again');
    receiver.respond(() => ({ status: 500 }));
    await fire('again');
    const dead = await settled(hook.id, 'dead');
    receiver.respond(() => ({ status: 200, body: JSON.stringify({ text: 'replied' }) }));
    const res = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/${dead.id}/redeliver`, { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, dead.id);
    assert.equal(res.json().status, 'pending');
    const delivered = await settled(hook.id, 'delivered');
    assert.equal(delivered.id, dead.id);
    assert.equal(receiver.requests.at(-1)?.headers['webhook-id'], dead.id);
    // Redeliver once more: the receiver is called again, but the reply post id is the same.
    await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/${dead.id}/redeliver`, { as: admin });
    await eventually(async () => (await deliveries(hook.id))[0]?.attempts === delivered.attempts + 1, 20_000, 'second redelivery');
    const replies = h.world.createdPosts.filter((c) => c.hook_id === hook.id);
    assert.equal(replies.length, 2);
    assert.equal(new Set(replies.map((c) => c.post.id)).size, 1);
    const unknown = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/${'a'.repeat(26)}/redeliver`, { as: admin });
    assertError(unknown, 404, 'app.webhooks.get_outgoing_delivery.app_error');
  });

  it('when a delivery is recorded as delivered, then its reply posts are already stored (read-your-writes), all parts in order', async () => {
    const hook = await hookFor('replyrw');
    const long = 'r'.repeat(16383) + 'tail';
    receiver.respond(() => ({ status: 200, body: JSON.stringify({ text: long }) }));
    await fire('replyrw');
    const delivered = await settled(hook.id, 'delivered');
    // No waiting past the delivery log: the reply is there the moment the log says delivered.
    const replies = h.world.createdPosts.filter((c) => c.hook_id === hook.id);
    assert.equal(replies.length, 2);
    assert.deepEqual(replies.map((c) => h.world.posts.get(c.post.id)?.message), ['r'.repeat(16383), 'tail']);
    assert.equal(delivered.last_error, '');
  });

  it('when posts cannot store the reply, then the delivery is retried after its backoff and is delivered once posts stores it', async () => {
    const hook = await hookFor('replydown');
    receiver.respond(() => ({ status: 200, body: JSON.stringify({ text: 'stored at last' }) }));
    h.world.createFailure = 503;
    try {
      await fire('replydown');
      const failed = await settled(hook.id, 'failed');
      assert.equal(failed.last_status_code, 200);
      assert.match(failed.last_error, /^reply post not stored: /);
      assert.equal(h.world.createdPosts.filter((c) => c.hook_id === hook.id).length, 0);
    } finally {
      h.world.createFailure = undefined;
    }
    const delivered = await settled(hook.id, 'delivered');
    const replies = h.world.createdPosts.filter((c) => c.hook_id === hook.id);
    assert.equal(replies.length, 1);
    assert.equal(h.world.posts.get(replies[0]?.post.id ?? '')?.message, 'stored at last');
    const calls = receiver.requests.filter((r) => r.path === '/replydown');
    assert.ok(calls.length >= 2);
    assert.equal(new Set(calls.map((r) => r.headers['webhook-id'])).size, 1);
    assert.equal(calls[0]?.headers['webhook-id'], delivered.id);
  });

  it('when posts refuses the reply (4xx), then the delivery is delivered with the refusal as last error and not retried', async () => {
    const hook = await hookFor('replyno');
    receiver.respond(() => ({ status: 200, body: JSON.stringify({ text: 'refused' }) }));
    h.world.createFailure = 400;
    try {
      await fire('replyno');
      const delivered = await settled(hook.id, 'delivered');
      assert.equal(delivered.attempts, 1);
      assert.equal(delivered.last_error, 'reply post refused: fake.create_post.app_error');
    } finally {
      h.world.createFailure = undefined;
    }
    assert.equal(receiver.requests.filter((r) => r.path === '/replyno').length, 1);
  });

  it('when failures since a time are recovered, then only failed or dead deliveries created since then are queued again', async () => {
    const hook = await hookFor('recover');
    receiver.respond(() => ({ status: 500 }));
    await fire('recover');
    await fire('recover');
    await eventually(async () => (await deliveries(hook.id)).filter((d) => d.status === 'dead').length === 2, 20_000, 'two dead deliveries');
    receiver.respond(() => ({ status: 200 }));
    const all = await deliveries(hook.id);
    const since = Math.max(...all.map((d) => (d as unknown as { create_at: number }).create_at));
    const res = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/redeliver_failed?since=${since}`, { as: admin });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as unknown[]).length, 1);
    await settled(hook.id, 'delivered');
    const everything = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/redeliver_failed`, { as: admin });
    assert.equal((everything.json() as unknown[]).length, 1);
    await eventually(async () => (await deliveries(hook.id)).every((d) => d.status === 'delivered'), 20_000, 'all delivered');
    const bad = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/deliveries/redeliver_failed?since=yesterday`, { as: admin });
    assertError(bad, 400, 'api.context.invalid_url_param.app_error');
  });

  it('when the signing secret was rotated, then the old and the new secret each sign during the overlap, and only the new one after it', async () => {
    const created = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['rotate'], callback_urls: [`${receiver.url}/rotate`] } })).json() as { id: string; signing_secret: string };
    receiver.respond(() => ({ status: 200 }));
    h.setConfig((c) => {
      fastDelivery(c);
      c.DeliverySettings.SecretOverlapMinutes = 30;
    });
    const rotated = await h.request('POST', `/api/v4/hooks/outgoing/${created.id}/regen_signing_secret`, { as: admin });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const oldSecret = created.signing_secret;
    const newSecret = (rotated.json() as { signing_secret: string }).signing_secret;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, oldSecret);
    /** The request's signatures, and the one each secret would give it (Standard Webhooks' own signer). */
    const signed = (index: number) => {
      const request = receiver.requests.filter((r) => r.path === '/rotate')[index];
      assert.ok(request, `request ${index} arrived`);
      const id = String(request.headers['webhook-id']);
      const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
      return {
        parts: String(request.headers['webhook-signature']).split(' ').sort(),
        by: (secret: string) => new Webhook(secret).sign(id, at, request.body),
        headers: { 'webhook-id': id, 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) },
        body: request.body,
      };
    };
    try {
      // Each delivery is recorded as delivered before the clock moves: a record still in flight when the clock
      // jumps past its lease is (rightly, at least once) taken over and sent again, which is not what this test is about.
      const recorded = (count: number) =>
        eventually(async () => (await deliveries(created.id)).filter((d) => d.status === 'delivered').length === count, 20_000, `${count} recorded deliveries`);
      await fire('rotate');
      await eventually(() => receiver.requests.filter((r) => r.path === '/rotate').length === 1, 20_000, 'the first delivery');
      await recorded(1);
      const during = signed(0);
      assert.deepEqual(during.parts, [during.by(oldSecret), during.by(newSecret)].sort(), 'one signature from each secret');
      assert.doesNotThrow(() => new Webhook(oldSecret).verify(during.body, during.headers, { jsonParse: false }));
      assert.doesNotThrow(() => new Webhook(newSecret).verify(during.body, during.headers, { jsonParse: false }));

      clock.offset = 29 * 60_000; // a minute before the overlap ends: both still sign
      await fire('rotate');
      await eventually(() => receiver.requests.filter((r) => r.path === '/rotate').length === 2, 20_000, 'the second delivery');
      await recorded(2);
      assert.deepEqual(signed(1).parts, [signed(1).by(oldSecret), signed(1).by(newSecret)].sort());

      clock.offset = 30 * 60_000 + 1_000; // SecretOverlapMinutes later
      await fire('rotate');
      await eventually(() => receiver.requests.filter((r) => r.path === '/rotate').length === 3, 20_000, 'the third delivery');
      const afterwards = signed(2);
      assert.deepEqual(afterwards.parts, [afterwards.by(newSecret)], 'exactly one signature, from the new secret');
    } finally {
      clock.offset = 0;
    }
  });

  it('when an origin keeps failing, then its breaker opens and further deliveries wait without using attempts', async () => {
    h.setConfig((c) => {
      fastDelivery(c);
      c.DeliverySettings.RetryBackoffSeconds = [0.01];
      c.DeliverySettings.BreakerMinRequests = 3;
      c.DeliverySettings.BreakerErrorPercent = 50;
      c.DeliverySettings.BreakerWindowSeconds = 10;
      c.DeliverySettings.BreakerResetSeconds = 0.3;
    });
    const dead = await startReceiver('127.0.0.1', () => ({ status: 502 }));
    try {
      const hook = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['trip'], callback_urls: [`${dead.url}/x`] } })).json() as { id: string };
      for (let i = 0; i < 3; i += 1) await fire('trip');
      await eventually(async () => (await deliveries(hook.id)).filter((d) => d.status === 'dead').length === 3, 20_000, 'three dead deliveries');
      const callsBefore = dead.requests.length;
      await fire('trip');
      const waiting = await eventually(async () => (await deliveries(hook.id)).find((d) => /circuit open/.test(d.last_error)), 20_000, 'a waiting delivery');
      assert.equal(waiting.attempts, 0);
      assert.equal(waiting.status, 'pending');
      assert.equal(dead.requests.length, callsBefore);
      // After BreakerResetSeconds one trial goes out.
      await eventually(() => dead.requests.length > callsBefore, 20_000, 'the trial request');
    } finally {
      await dead.close();
    }
  });
});

describe('two dispatcher instances on one bus and one store', () => {
  it('when both run and one stops mid-run, then every delivery still arrives, each exactly once', async () => {
    const bus = new RecordingBus();
    const world = new FakeWorld(SECRET);
    const repositories = memoryRepositories();
    // Record which instance wins each claim (stored claimed by the firing instance, or a scheduler's).
    const attemptsBy = new Map<string, number>();
    const deliveriesRepo = repositories.deliveries;
    const insertAll = deliveriesRepo.insertAllIfAbsent.bind(deliveriesRepo);
    const claimDue = deliveriesRepo.claimDue.bind(deliveriesRepo);
    const count = (owner: string, n: number) => attemptsBy.set(owner, (attemptsBy.get(owner) ?? 0) + n);
    deliveriesRepo.insertAllIfAbsent = async (deliveries) => {
      const inserted = await insertAll(deliveries);
      for (const d of deliveries) if (inserted.has(d.id)) count(d.claimedBy, 1);
      return inserted;
    };
    deliveriesRepo.claimDue = async (request, limit) => {
      const claimed = await claimDue(request, limit);
      count(request.owner, claimed.length);
      return claimed;
    };
    const receiver = await startReceiver('127.0.0.1', async () => {
      await new Promise((r) => setTimeout(r, 2));
      return { status: 200 };
    });
    const a = await harness({ bus, world, repositories, instanceId: 'a', scanIntervalMs: 20 });
    const b = await harness({ bus, world, repositories, instanceId: 'b', scanIntervalMs: 20 });
    try {
      for (const instance of [a, b]) instance.setConfig((c) => {
        fastDelivery(c);
        c.ServiceSettings.OutgoingIntegrationRequestsTimeout = 10;
      });
      const teamId = world.team('pair');
      const admin = { id: world.user('padmin').id, roles: 'system_admin system_user' };
      const author = world.user('carol', { teamId });
      // Work on every partition of posts.events (keyed by channel id; the firing instance claims), so that
      // both instances own some of it whatever the ids hash to.
      const channels: InternalChannel[] = [];
      while (channels.length < 3) {
        const candidate = world.channel(teamId, 'O');
        if (!channels.some((c) => partitionFor(c.id, 3) === partitionFor(candidate.id, 3))) channels.push(candidate);
      }
      const hookIds: string[] = [];
      while (hookIds.length < 6 || new Set(hookIds.map((id) => partitionFor(id, 3))).size < 3) {
        const word = `w${hookIds.length}`;
        const res = await a.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: [word], callback_urls: [`${receiver.url}/h${hookIds.length}`] } });
        assert.equal(res.statusCode, 201, res.body);
        hookIds.push((res.json() as { id: string }).id);
      }
      const total = 60;
      const allDeliveries = async () => (await Promise.all(hookIds.map((id) => repositories.deliveries.listByHook(id, { page: 0, perPage: 200 })))).flat();
      for (let i = 0; i < total; i += 1) {
        const channel = channels[i % channels.length] as InternalChannel;
        const post = world.post(channel, author.id, `w${i % hookIds.length} message ${i}`);
        await a.publishPost(post, channel, author);
        if (i === total / 2) {
          // Both have taken work by now (waited for, not assumed: on a busy machine b may not have run yet) ...
          await eventually(() => (attemptsBy.get('a') ?? 0) > 0 && (attemptsBy.get('b') ?? 0) > 0, 15_000, `both instances attempting: ${JSON.stringify([...attemptsBy])}`);
          void b.stop(); // ... and b leaves while its partitions still have work (its in-flight attempts finish)
        }
      }
      const delivered = await eventually(async () => {
        const all = await allDeliveries();
        return all.length === total && all.every((d) => d.status === 'delivered') && all;
      }, 15000, `${total} delivered`);
      const byInstance = new Set(receiver.requests.map((r) => r.path));
      assert.equal(byInstance.size, Math.min(total, hookIds.length));
      const received = new Map<string, number>();
      for (const r of receiver.requests) received.set(String(r.headers['webhook-id']), (received.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      assert.deepEqual([...received.keys()].sort(), delivered.map((d) => d.id).sort(), 'every delivery arrived, and nothing else');
      // b stopped in order (its attempts drained) and no attempt can time out (10 s for a 2 ms receiver), so no
      // delivery may be repeated: a duplicate here means two instances sent the same attempt.
      const duplicates = receiver.requests.length - total;
      assert.equal(duplicates, 0, `duplicates: ${JSON.stringify([...received].filter(([, n]) => n > 1))}`);
      assert.deepEqual(delivered.filter((d) => d.attempts !== 1).map((d) => [d.id, d.attempts]), [], 'one attempt each');
      assert.ok(attemptsBy.get('a') && attemptsBy.get('b'), `both instances claimed: ${JSON.stringify([...attemptsBy])}`);
    } finally {
      await a.stop();
      await b.stop().catch(() => undefined);
      await bus.close();
      await receiver.close();
    }
  });
});

describe('a claim left by an instance that died', () => {
  it('when its lease runs out, then another instance takes the delivery over and delivers it', async () => {
    const h = await harness({ instanceId: 'survivor', scanIntervalMs: 20 });
    const receiver = await startReceiver();
    try {
      h.setConfig(fastDelivery);
      const teamId = h.world.team('lease');
      const admin = { id: h.world.user('ladmin').id, roles: 'system_admin system_user' };
      const hook = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['x'], callback_urls: [`${receiver.url}/orphan`] } })).json() as { id: string };
      const now = Date.now();
      await h.app.deps.deliveries.insertIfAbsent({
        id: 'o'.repeat(26), hookId: hook.id, postId: 'p'.repeat(26), channelId: 'c'.repeat(26), threadRootId: 'p'.repeat(26), url: `${receiver.url}/orphan`,
        contentType: 'application/json', body: '{}', status: 'pending', attempts: 0, tries: 0, lastStatusCode: 0, lastError: '', lastLatencyMs: 0,
        createAt: now, updateAt: now, nextAttemptAt: now, claimedBy: 'crashed-instance', claimUntil: now + 150,
      });
      const delivered = await eventually(async () => {
        const d = await h.app.deps.deliveries.findById('o'.repeat(26));
        return d?.status === 'delivered' && d;
      }, 20_000, 'the orphaned delivery');
      assert.equal(delivered.attempts, 1);
      assert.ok(receiver.requests[0]);
      assert.ok(Date.now() >= now + 150);
    } finally {
      await h.stop();
      await receiver.close();
    }
  });
});

describe('attempts one instance runs at once (DELIVERY_CONCURRENCY)', () => {
  it('when a post fires more deliveries than the instance runs at once, then every one arrives and never more than that many are in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const receiver = await startReceiver('127.0.0.1', async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      return { status: 200 };
    });
    const h = await harness({ concurrency: 2 });
    try {
      h.setConfig(fastDelivery);
      const teamId = h.world.team('slots');
      const admin = { id: h.world.user('sadmin').id, roles: 'system_admin system_user' };
      const author = h.world.user('sauthor', { teamId });
      const channel = h.world.channel(teamId, 'O');
      const urls = Array.from({ length: 5 }, (_, i) => `${receiver.url}/u${i}`);
      const created = await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['many'], callback_urls: urls } });
      assert.equal(created.statusCode, 201, created.body);
      for (let i = 0; i < 3; i += 1) await h.publishPost(h.world.post(channel, author.id, `many ${i}`), channel, author);
      await eventually(() => receiver.requests.length >= 15, 20_000, '15 deliveries');
      assert.equal(new Set(receiver.requests.map((r) => `${String(r.headers['webhook-id'])}`)).size, 15);
      assert.ok(most <= 2, `at most 2 in flight, saw ${most}`);
      assert.equal(most, 2, 'both slots were used');
    } finally {
      await h.stop();
      await receiver.close();
    }
  });
});

describe('an attempt that fails inside the dispatcher (not the call)', () => {
  it('when it keeps failing, then it is retried on the backoff schedule without counting attempts, then dead, and no call is made', async () => {
    const repositories = memoryRepositories();
    const findById = repositories.hooks.findById.bind(repositories.hooks);
    let broken = '';
    repositories.hooks.findById = async (id) => {
      if (id === broken) throw new Error('hook store read failed');
      return findById(id);
    };
    const h = await harness({ repositories, scanIntervalMs: 20 });
    const receiver = await startReceiver();
    try {
      h.setConfig(fastDelivery);
      const teamId = h.world.team('internal');
      const admin = { id: h.world.user('iadmin').id, roles: 'system_admin system_user' };
      const hook = (await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['x'], callback_urls: [`${receiver.url}/never`] } })).json() as { id: string };
      broken = hook.id;
      const now = Date.now();
      // A retry (the scheduler's path reads the hook again).
      await h.app.deps.deliveries.insertIfAbsent({
        id: 'i'.repeat(26), hookId: hook.id, postId: 'p'.repeat(26), channelId: 'c'.repeat(26), threadRootId: 'p'.repeat(26), url: `${receiver.url}/never`,
        contentType: 'application/json', body: '{}', status: 'failed', attempts: 1, tries: 0, lastStatusCode: 503, lastError: 'status=503', lastLatencyMs: 1,
        createAt: now, updateAt: now, nextAttemptAt: now, claimedBy: '', claimUntil: 0,
      });
      const dead = await eventually(async () => {
        const d = await h.app.deps.deliveries.findById('i'.repeat(26));
        return d?.status === 'dead' && d;
      }, 10_000, 'the delivery dead after RetryBackoffSeconds');
      assert.equal(dead.attempts, 1, 'no attempt counted: no call was made');
      assert.equal(dead.tries, 4, 'three retries on the schedule, the fourth failure ends it');
      assert.match(dead.lastError, /^internal: .*hook store read failed/);
      assert.equal(receiver.requests.length, 0);
    } finally {
      await h.stop();
      await receiver.close();
    }
  });
});
