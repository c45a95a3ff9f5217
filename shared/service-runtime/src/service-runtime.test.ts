import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, Joi, loadConfig } from '@switchyard/config';
import { MemoryEventBus, type EventBus, type SubscribeOptions } from '@switchyard/event-bus';
import { createHttpApp, InProcessTransport } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { loadAllConfig, loadRuntimeConfig, NamespacedEventBus, parseTopicPartitions, runService, topicsToEnsure, type OwnedInfra, type RunnableApp } from './index';

const serviceSchema = Joi.object<{ INTERNAL_SECRET: string; WIDGETS: number }>({
  INTERNAL_SECRET: Joi.string().min(16).required(),
  WIDGETS: Joi.number().integer().default(1),
});
const loadService = (env: NodeJS.ProcessEnv) => loadConfig(serviceSchema, env);

test('when runtime and service keys are both wrong, then one error lists every problem of both', () => {
  assert.throws(
    () => loadAllConfig({ PORT: 'x', KAFKA_TOPIC_PARTITIONS: 'a=0', WIDGETS: 'many' }, 'svc', 9000, loadService),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const key of ['PORT', 'KAFKA_TOPIC_PARTITIONS', 'INTERNAL_SECRET', 'WIDGETS']) assert.match(text, new RegExp(key));
      return true;
    },
  );
});

test('when the env is minimal, then the defaults say memory bus, no Mongo, no Redis, the default port and database', () => {
  const { runtime, service } = loadAllConfig({ INTERNAL_SECRET: 'x'.repeat(16) }, 'users-bots', 8066, loadService);
  assert.equal(runtime.PORT, 8066);
  assert.equal(runtime.KAFKA_BROKERS, undefined);
  assert.equal(runtime.MONGO_URL, undefined);
  assert.equal(runtime.REDIS_URL, undefined);
  assert.equal(runtime.MONGO_DB, 'switchyard_users_bots');
  assert.deepEqual(runtime.SERVICE_URLS, {});
  assert.equal(service.WIDGETS, 1);
});

test('when brokers, service urls and partitions are given, then they are parsed', () => {
  const { config } = loadRuntimeConfig(
    { KAFKA_BROKERS: '127.0.0.1:9092, 127.0.0.1:9094', SERVICE_URLS: 'users-bots=http://127.0.0.1:8066,posts=http://127.0.0.1:8067', KAFKA_TOPIC_PARTITIONS: 'posts.events=6,users.events=3' },
    'gateway',
    8065,
  );
  assert.deepEqual(config?.KAFKA_BROKERS, ['127.0.0.1:9092', '127.0.0.1:9094']);
  assert.deepEqual(config?.SERVICE_URLS, { 'users-bots': 'http://127.0.0.1:8066', posts: 'http://127.0.0.1:8067' });
  assert.deepEqual(config?.KAFKA_TOPIC_PARTITIONS, { 'posts.events': 6, 'users.events': 3 });
});

test('when a topics file is named, then its "<name> <partitions>" lines give the counts and inline values win', () => {
  const dir = mkdtempSync(join(tmpdir(), 'topics-'));
  const file = join(dir, 'topics.txt');
  writeFileSync(file, '# comment\nposts.events 6\n\nusers.events 3\n');
  const { config } = loadRuntimeConfig({ KAFKA_TOPICS_FILE: file, KAFKA_TOPIC_PARTITIONS: 'users.events=4' }, 'svc', 1);
  assert.deepEqual(config?.KAFKA_TOPIC_PARTITIONS, { 'posts.events': 6, 'users.events': 4 });
  const missing = loadRuntimeConfig({ KAFKA_TOPICS_FILE: join(dir, 'nope.txt') }, 'svc', 1);
  assert.match(missing.problems.join(), /KAFKA_TOPICS_FILE/);
  assert.throws(() => parseTopicPartitions('posts.events six'), /not <topic>=<partitions>/);
});

test('when topics are ensured, then every contract topic and its dead-letter topic are listed with counts', () => {
  const { config } = loadRuntimeConfig({ KAFKA_TOPIC_PARTITIONS: 'posts.events=6', KAFKA_DEFAULT_PARTITIONS: '2' }, 'svc', 1);
  assert.ok(config);
  const topics = new Map(topicsToEnsure(config).map((t) => [t.topic, t.partitions]));
  assert.equal(topics.get('posts.events'), 6);
  assert.equal(topics.get('users.events'), 2);
  assert.equal(topics.get('posts.events.dlq'), 1);
});

/** A fake infrastructure that records the order things close in. */
function fakeInfra(events: string[], healthy: { mongo: boolean }): (name: string) => Promise<OwnedInfra> {
  return async (name) => {
    const { runtime } = loadAllConfig({ HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16) }, name, 0, loadService);
    const bus = new MemoryEventBus();
    return {
      name,
      logger: createSilentLogger(),
      bus,
      transport: new InProcessTransport(),
      runtime,
      // Only its presence matters to the readiness wrapper.
      mongo: {} as unknown as NonNullable<OwnedInfra['mongo']>,
      checks: async () => ({ mongo: healthy.mongo }),
      close: async () => {
        events.push('infra.close');
        await bus.close();
      },
    };
  };
}

function fakeApp(events: string[]): RunnableApp {
  const http = createHttpApp({ service: 'svc', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: { app: true } }) });
  http.app.get('/work', (_req, res) => {
    res.json({ ok: true });
  });
  const handler = http.finalize();
  return {
    handler: handler as unknown as RunnableApp['handler'],
    start: async () => {
      events.push('app.start');
    },
    stop: async () => {
      events.push('app.stop');
    },
  };
}

test('when a service runs and shuts down, then it serves, reports infra readiness, and stops intake, app, then infra', async () => {
  const events: string[] = [];
  const healthy = { mongo: true };
  const running = await runService({
    name: 'svc',
    defaultPort: 0,
    env: { HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16), READINESS_GRACE_MS: '0' },
    loadConfig: loadService,
    build: () => fakeApp(events),
    handleSignals: false,
    infra: fakeInfra(events, healthy),
  });
  const base = `http://127.0.0.1:${running.server.port}`;
  assert.equal((await fetch(`${base}/work`)).status, 200);
  assert.equal((await fetch(`${base}/health/ready`)).status, 200);
  healthy.mongo = false;
  const notReady = await fetch(`${base}/health/ready`);
  assert.equal(notReady.status, 503);
  assert.deepEqual(((await notReady.json()) as { checks: unknown }).checks, { mongo: false });
  assert.equal((await fetch(`${base}/health/live`)).status, 200);

  await running.shutdown('test');
  assert.deepEqual(events, ['app.start', 'app.stop', 'infra.close']);
  await assert.rejects(fetch(`${base}/work`));
});

test('when the app fails to start, then the infrastructure is closed and the error surfaces', async () => {
  const events: string[] = [];
  await assert.rejects(
    runService({
      name: 'svc',
      defaultPort: 0,
      env: { HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16) },
      loadConfig: loadService,
      build: () => ({
        ...fakeApp(events),
        start: async () => {
          throw new Error('boom');
        },
      }),
      handleSignals: false,
      infra: fakeInfra(events, { mongo: true }),
    }),
    /boom/,
  );
  assert.deepEqual(events, ['app.stop', 'infra.close']);
});

test('when a bus is namespaced, then topics and groups carry the prefix and handlers see contract names', async () => {
  const inner = new MemoryEventBus();
  const bus = new NamespacedEventBus(inner, 'run1.');
  const seen: string[] = [];
  const rawSeen: string[] = [];
  await inner.subscribe({ groupId: 'spy', topics: ['run1.users.events'], handler: async (m) => void rawSeen.push(m.topic) });
  await inner.subscribe({ groupId: 'other-deployment', topics: ['users.events'], handler: async (m) => void seen.push(`other:${m.topic}`) });
  await bus.subscribe({ groupId: 'g', topics: ['users.events'], handler: async (m) => void seen.push(m.topic) });
  await bus.publish('users.events', [{ key: 'u1', value: { type: 'x' } }]);
  for (let i = 0; i < 100 && (seen.length === 0 || rawSeen.length === 0); i += 1) await new Promise((r) => setImmediate(r));
  assert.deepEqual(seen, ['users.events']);
  assert.deepEqual(rawSeen, ['run1.users.events']);
  await bus.close();
});

test('when a namespaced bus subscribes with a batch handler, then the batch handler sees contract topic names', async () => {
  const inner = new MemoryEventBus();
  let given: SubscribeOptions | undefined;
  const spy: EventBus = {
    publish: (topic, messages) => inner.publish(topic, messages),
    subscribe: async (options) => {
      given = options;
      return { stop: async () => undefined };
    },
    health: async () => true,
    close: async () => undefined,
  };
  const seen: string[] = [];
  await new NamespacedEventBus(spy, 'run1.').subscribe({
    groupId: 'g',
    topics: ['users.events'],
    handler: async () => undefined,
    batchHandler: async (messages) => void seen.push(...messages.map((m) => `${m.topic}@${m.offset}`)),
  });
  const message = { topic: 'run1.users.events', partition: 0, key: 'k', value: {}, headers: {}, attempt: 1 };
  await given?.batchHandler?.([
    { ...message, offset: '0' },
    { ...message, offset: '1' },
  ]);
  assert.equal(given?.groupId, 'run1.g');
  assert.deepEqual(seen, ['users.events@0', 'users.events@1']);
});

test('when a service does not use Redis or Mongo, then their URLs in a shared env are ignored', async () => {
  const events: string[] = [];
  let seen: { MONGO_URL?: string; REDIS_URL?: string } | undefined;
  const running = await runService({
    name: 'svc',
    defaultPort: 0,
    env: { HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16), REDIS_URL: 'redis://127.0.0.1:1', MONGO_URL: 'mongodb://127.0.0.1:1' },
    loadConfig: loadService,
    uses: { redis: false },
    build: () => fakeApp(events),
    handleSignals: false,
    infra: async (name, runtime) => {
      seen = runtime;
      return fakeInfra(events, { mongo: true })(name);
    },
  });
  await running.shutdown('test');
  assert.equal(seen?.REDIS_URL, undefined);
  assert.equal(seen?.MONGO_URL, 'mongodb://127.0.0.1:1');
});

test('when a shared dependency blips for less than the grace period, then readiness stays up; a dead consumer fails liveness', async () => {
  const events: string[] = [];
  const healthy = { mongo: true };
  const dead: string[] = [];
  const running = await runService({
    name: 'svc',
    defaultPort: 0,
    env: { HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16), READINESS_GRACE_MS: '600000' },
    loadConfig: loadService,
    build: () => fakeApp(events),
    handleSignals: false,
    infra: async (name) => ({ ...(await fakeInfra(events, healthy)(name)), deadConsumers: () => dead }),
  });
  try {
    const base = `http://127.0.0.1:${running.server.port}`;
    healthy.mongo = false;
    assert.equal((await fetch(`${base}/health/ready`)).status, 200, 'within the grace period the pod stays in the endpoints');
    assert.equal((await fetch(`${base}/health/live`)).status, 200);
    dead.push('svc-group');
    const live = await fetch(`${base}/health/live`);
    assert.equal(live.status, 503);
    assert.deepEqual(((await live.json()) as { checks: unknown }).checks, { consumers: false, dead_consumer_groups: ['svc-group'] });
  } finally {
    await running.shutdown('test');
  }
});

test('when readyWithoutRedis is set (the gateway), then Redis down does not unready it, while Mongo down still would', async () => {
  const events: string[] = [];
  const state = { mongo: true, redis: false };
  const infra = async (name: string): Promise<OwnedInfra> => {
    const base = await fakeInfra(events, state)(name);
    return { ...base, redis: {} as unknown as NonNullable<OwnedInfra['redis']>, checks: async () => ({ mongo: state.mongo, redis: state.redis }) };
  };
  const running = await runService({
    name: 'svc',
    defaultPort: 0,
    env: { HOST: '127.0.0.1', PORT: '0', INTERNAL_SECRET: 'x'.repeat(16), READINESS_GRACE_MS: '0' },
    loadConfig: loadService,
    build: () => fakeApp(events),
    handleSignals: false,
    readyWithoutRedis: true,
    infra,
  });
  try {
    const base = `http://127.0.0.1:${running.server.port}`;
    assert.equal((await fetch(`${base}/health/ready`)).status, 200, 'redis down, grace 0: still ready');
    state.mongo = false;
    assert.equal((await fetch(`${base}/health/ready`)).status, 503);
  } finally {
    await running.shutdown('test');
  }
});
