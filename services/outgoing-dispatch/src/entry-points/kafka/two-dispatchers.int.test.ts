import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { inject } from 'light-my-request';
import { envelope, Services, Topics, type PostEventPayload } from '@switchyard/contracts';
import { InProcessTransport, signIdentity } from '@switchyard/http-kit';
import { buildInfra, loadRuntimeConfig, type OwnedInfra } from '@switchyard/service-runtime';
import { createOutgoingDispatchApp, type OutgoingDispatchApp } from '../../app';
import { createOutgoingDispatchMongoRepositories } from '../../adapters/mongo';
import type { Repositories } from '../../domain/ports';
import { FakeWorld } from '../../test-support/fake-platform';
import { eventually, fastDelivery, SECRET, silentLogger } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

const brokers = process.env.KAFKA_BROKERS;
const mongoUrl = process.env.MONGO_URL;

/**
 * Two dispatcher instances as two members of the consumer groups on real Kafka (own namespace: topics and
 * groups of this run only) and one MongoDB-wire database: they share the deliveries, one leaves mid-run,
 * and every delivery still arrives exactly once per webhook-id.
 */
describe('two dispatchers on Kafka and MongoDB', { skip: (!brokers || !mongoUrl) && 'KAFKA_BROKERS or MONGO_URL not set: run deploy/local/up.sh', timeout: 180_000 }, () => {
  const run = randomBytes(4).toString('hex');
  const env = {
    KAFKA_BROKERS: brokers,
    KAFKA_NAMESPACE: `odit${run}.`,
    KAFKA_TOPIC_PARTITIONS: `${Topics.outgoingDeliveries}=6,${Topics.postsEvents}=6`,
    MONGO_URL: mongoUrl,
    MONGO_DB: `outgoing_kafka_it_${run}`,
    LOG_LEVEL: 'error',
    KAFKA_LOG_LEVEL: 'nothing',
  };
  const infras: OwnedInfra[] = [];
  const apps: OutgoingDispatchApp[] = [];
  const world = new FakeWorld(SECRET);
  const attemptsBy = new Map<string, number>();
  let receiver: Receiver;
  let shared: Repositories | undefined;

  const instance = async (id: string): Promise<OutgoingDispatchApp> => {
    const { config, problems } = loadRuntimeConfig(env, 'outgoing-dispatch', 0);
    if (!config) throw new Error(problems.join('; '));
    const infra = await buildInfra(`outgoing-dispatch-${id}`, config);
    infras.push(infra);
    if (!infra.mongo) throw new Error('no MongoDB connection');
    const repositories = await createOutgoingDispatchMongoRepositories(infra.mongo);
    shared ??= repositories;
    // Claims: stored claimed by the firing instance, or taken by a scheduler.
    const insertAll = repositories.deliveries.insertAllIfAbsent.bind(repositories.deliveries);
    const claimDue = repositories.deliveries.claimDue.bind(repositories.deliveries);
    const count = (n: number) => attemptsBy.set(id, (attemptsBy.get(id) ?? 0) + n);
    repositories.deliveries.insertAllIfAbsent = async (deliveries) => {
      const inserted = await insertAll(deliveries);
      count(inserted.size);
      return inserted;
    };
    repositories.deliveries.claimDue = async (request, limit) => {
      const claimed = await claimDue(request, limit);
      count(claimed.length);
      return claimed;
    };
    const transport = new InProcessTransport({ [Services.usersBots]: world.usersBots, [Services.posts]: world.postsService });
    const app = createOutgoingDispatchApp(
      { PORT: 0, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', LOG_FORMAT: 'json', DELIVERY_SCAN_INTERVAL_MS: 200, INSTANCE_ID: id },
      { logger: silentLogger, bus: infra.bus, transport, repositories },
    );
    await app.start();
    const next = structuredClone(app.liveConfig.current());
    fastDelivery(next);
    next.ServiceSettings.OutgoingIntegrationRequestsTimeout = 2;
    app.liveConfig.replace(next);
    apps.push(app);
    return app;
  };

  before(async () => {
    receiver = await startReceiver('127.0.0.1', async () => {
      await new Promise((r) => setTimeout(r, 2));
      return { status: 200 };
    });
  });
  after(async () => {
    for (const app of apps) await app.stop().catch(() => undefined);
    for (const infra of infras.slice(0, 1)) await infra.mongo?.dropDatabase().catch(() => undefined);
    for (const infra of infras) await infra.close();
    await receiver?.close();
  });

  it('when one instance leaves mid-run, then the other takes its partitions and every delivery arrives, repeated only by a recorded retry', async () => {
    const a = await instance('a');
    const b = await instance('b');
    const teamId = world.team('kafka');
    const admin = { id: world.user('kadmin').id, roles: 'system_admin system_user' };
    const author = world.user('kauthor', { teamId });
    // posts.events is keyed by channel id and the firing instance attempts: 12 channels spread the posts
    // over the 6 partitions, so that both instances get some whatever the ids hash to.
    const channels = Array.from({ length: 12 }, () => world.channel(teamId, 'O'));
    // Signed per request, as the gateway does (bound to the method and target, short-lived).
    const headers = (): Record<string, string> => ({
      ...signIdentity({ userId: admin.id, sessionId: 's', roles: admin.roles, isBot: false, sessionType: 'session' }, SECRET, { method: 'POST', target: '/api/v4/hooks/outgoing' }),
      'content-type': 'application/json',
    });
    const hookIds: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await inject(a.handler, { method: 'POST', url: '/api/v4/hooks/outgoing', headers: headers(), payload: JSON.stringify({ team_id: teamId, trigger_words: [`k${i}`], callback_urls: [`${receiver.url}/k${i}`] }) });
      assert.equal(res.statusCode, 201, res.body);
      hookIds.push((res.json() as { id: string }).id);
    }
    const publisher = infras[0]?.bus;
    assert.ok(publisher);
    const total = 60;
    for (let i = 0; i < total; i += 1) {
      const channel = channels[i % channels.length] ?? channels[0];
      assert.ok(channel);
      const post = world.post(channel, author.id, `k${i % 6} message ${i}`);
      const payload: PostEventPayload = { post, channel, team: { id: teamId, name: 'kafka' }, author: { id: author.id, username: author.username, is_bot: false }, source: 'api', from_webhook: false, is_system: false };
      await publisher.publish(Topics.postsEvents, [{ key: channel.id, value: envelope('post.created', payload) }]);
      if (i === total / 2) {
        await eventually(() => receiver.requests.length > 5, 60_000, 'the first deliveries');
        void b.stop();
      }
    }
    await eventually(async () => {
      let delivered = 0;
      for (const id of hookIds) delivered += (await shared?.deliveries.listByHook(id, { page: 0, perPage: 200 }) ?? []).filter((d) => d.status === 'delivered').length;
      return delivered === total;
    }, 120_000, `${total} delivered`);
    const ids = new Set(receiver.requests.map((r) => String(r.headers['webhook-id'])));
    assert.equal(ids.size, total, 'every delivery arrived');
    // Requests are counted, not only distinct ids: a delivery may be sent again only by a recorded retry (an
    // attempt that timed out after the receiver got it), never twice for one attempt by two instances.
    const requestsOf = new Map<string, number>();
    for (const r of receiver.requests) requestsOf.set(String(r.headers['webhook-id']), (requestsOf.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    const stored = (await Promise.all(hookIds.map((id) => shared?.deliveries.listByHook(id, { page: 0, perPage: 200 }) ?? []))).flat();
    const duplicates = receiver.requests.length - total;
    for (const d of stored) assert.ok((requestsOf.get(d.id) ?? 0) <= d.attempts, `delivery ${d.id}: ${requestsOf.get(d.id)} requests for ${d.attempts} recorded attempts (${duplicates} duplicates in all)`);
    assert.ok(duplicates <= stored.reduce((n, d) => n + d.attempts - 1, 0), `${duplicates} duplicate requests, more than the recorded retries`);
    assert.ok((attemptsBy.get('a') ?? 0) > 0, `a attempted: ${JSON.stringify([...attemptsBy])}`);
    assert.ok((attemptsBy.get('b') ?? 0) > 0, `b attempted: ${JSON.stringify([...attemptsBy])}`);
  });
});
