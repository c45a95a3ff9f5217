import type { Redis } from 'ioredis';
import { ALL_TOPICS, Services } from '@switchyard/contracts';
import { deadLetterTopic, MemoryEventBus, type EventBus } from '@switchyard/event-bus';
import { isDependencyUnavailable } from '@switchyard/errors';
import { KafkaEventBus } from '@switchyard/event-bus-kafka';
import { HttpTransport, type ServiceTransport } from '@switchyard/http-kit';
import { createLogger, type Logger } from '@switchyard/logger';
import type { Connection } from '@switchyard/mongo-kit';
import { NamespacedEventBus } from './namespaced-event-bus';
import { boundedCheck } from './bounded-check';
import { ReadinessGraceBus } from './readiness-grace-bus';
import type { RuntimeConfig } from './runtime-config';

/** What `runService` hands to a service's `build`: every adapter chosen from the environment. */
export interface Infra {
  readonly name: string;
  readonly logger: Logger;
  /** KafkaEventBus when KAFKA_BROKERS is set, else an in-process MemoryEventBus. */
  readonly bus: EventBus;
  /** HTTP pools to SERVICE_URLS. */
  readonly transport: ServiceTransport;
  /** A dedicated mongoose connection to MONGO_DB when MONGO_URL is set. */
  readonly mongo?: Connection;
  /** An ioredis client when REDIS_URL is set. */
  readonly redis?: Redis;
  readonly runtime: RuntimeConfig;
}

/** Infra plus what the runtime needs to probe and close it. */
export interface OwnedInfra extends Infra {
  /** Readiness of Mongo and Redis (the app's own health covers the bus). */
  checks(): Promise<Record<string, boolean>>;
  /** Closes the bus (consumers stop and commit, the producer flushes), the transport, Redis, Mongo. */
  close(): Promise<void>;
  /** Consumer groups whose Kafka consumer died for good (liveness fails: only a restart helps). */
  deadConsumers?(): readonly string[];
}

const REDIS_PING_TIMEOUT_MS = 2_000;

/** GET /api/v4/events to realtime: at most realtime's own bound of waiting polls (EVENT_MAX_WAITING) per replica. */
const EVENT_LONG_POLLS = {
  matches: (service: string, path: string): boolean => service === Services.realtime && (path === '/api/v4/events' || path.startsWith('/api/v4/events?')),
  connections: 10_000,
};

/** The topics every service may publish or consume, and their dead-letter topics, with partitions and retention. */
export function topicsToEnsure(config: RuntimeConfig): { topic: string; partitions: number; retentionMs: number }[] {
  const names = new Set<string>([...ALL_TOPICS, ...ALL_TOPICS.map(deadLetterTopic), ...Object.keys(config.KAFKA_TOPIC_PARTITIONS)]);
  return [...names].map((topic) => {
    const dlq = topic.endsWith('.dlq');
    return {
      topic,
      partitions: config.KAFKA_TOPIC_PARTITIONS[topic] ?? (dlq ? 1 : config.KAFKA_DEFAULT_PARTITIONS),
      retentionMs: config.kafka.retentionMs[topic] ?? (dlq ? config.kafka.deadLetterRetentionMs : config.kafka.defaultRetentionMs),
    };
  });
}

/** The same topics under this deployment's namespace. */
function namespacedTopics(config: RuntimeConfig): { topic: string; partitions: number; retentionMs: number }[] {
  return topicsToEnsure(config).map((t) => ({ ...t, topic: config.KAFKA_NAMESPACE + t.topic }));
}

/** Opens what the environment asks for; on a failure closes what was opened and rethrows. */
export async function buildInfra(name: string, config: RuntimeConfig): Promise<OwnedInfra> {
  const logger = createLogger({ service: name, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const closers: { what: string; close: () => Promise<unknown> }[] = [];
  const closeAll = async (): Promise<void> => {
    // In opening order: the bus first (consumers finish and commit, the producer flushes) while the
    // stores they write to are still open; then the transport, Redis and Mongo.
    for (const { what, close } of closers) {
      try {
        await close();
      } catch (error) {
        logger.warn('closing failed', { what, error: error instanceof Error ? error.message : String(error) });
      }
    }
    closers.length = 0;
  };
  try {
    let bus: EventBus;
    let deadConsumers: () => readonly string[] = () => [];
    if (config.KAFKA_BROKERS && config.KAFKA_BROKERS.length > 0) {
      const kafka = new KafkaEventBus({
        brokers: config.KAFKA_BROKERS,
        ...(config.kafka.ssl ? { ssl: config.kafka.ssl } : {}),
        ...(config.kafka.sasl ? { sasl: config.kafka.sasl } : {}),
        replicationFactor: config.kafka.replicationFactor,
        ...(config.kafka.minInsyncReplicas !== undefined ? { minInsyncReplicas: config.kafka.minInsyncReplicas } : {}),
        clientId: name,
        logger: logger.child({ component: 'kafka' }),
        kafkaLogLevel: config.KAFKA_LOG_LEVEL,
        partitions: config.KAFKA_TOPIC_PARTITIONS,
        defaultPartitions: config.KAFKA_DEFAULT_PARTITIONS,
        maxWaitTimeMs: config.KAFKA_MAX_WAIT_MS,
        heartbeatIntervalMs: config.KAFKA_HEARTBEAT_INTERVAL_MS,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        fetchLingerMs: config.KAFKA_FETCH_LINGER_MS,
        commitIntervalMs: config.KAFKA_COMMIT_INTERVAL_MS,
        // The store (or a service) down for now: the message waits on its partition, it is not dead-lettered.
        isTransientError: isDependencyUnavailable,
      });
      closers.push({ what: 'kafka', close: () => kafka.close() });
      if (config.KAFKA_ENSURE_TOPICS) await kafka.ensureTopics(namespacedTopics(config));
      const scoped = config.KAFKA_NAMESPACE === '' ? kafka : new NamespacedEventBus(kafka, config.KAFKA_NAMESPACE);
      // A Kafka blip must not unready every pod at once (ADR 0025): the same grace as Mongo and Redis.
      bus = new ReadinessGraceBus(scoped, config.READINESS_GRACE_MS);
      deadConsumers = () => kafka.deadConsumers();
    } else {
      const memory = new MemoryEventBus();
      closers.push({ what: 'bus', close: () => memory.close() });
      bus = memory;
    }
    // Long-polls of the event stream hold a connection up to their wait: a pool of their own (the gateway's).
    const transport = new HttpTransport(config.SERVICE_URLS, config.UPSTREAM_TIMEOUT_MS, { longRequests: EVENT_LONG_POLLS });
    closers.push({ what: 'transport', close: () => transport.close() });

    // ioredis, mongoose and the MongoDB driver are loaded only by a service that uses them (the driver and
    // mongoose alone are ~400 modules and ~12 MB of heap that the gateway and realtime never need).
    let redis: Redis | undefined;
    if (config.REDIS_URL) {
      const { Redis } = await import('ioredis');
      const client = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, connectionName: name });
      client.on('error', (error: Error) => logger.warn('redis connection error', { error: error.message }));
      closers.push({ what: 'redis', close: () => quitRedis(client) });
      await client.connect();
      redis = client;
    }

    let mongo: { readonly connection: Connection; healthy(): Promise<boolean> } | undefined;
    if (config.MONGO_URL) {
      const { connectMongo, mongoHealthy } = await import('@switchyard/mongo-kit');
      const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, service: name });
      closers.push({ what: 'mongo', close: () => connection.close() });
      mongo = { connection, healthy: () => mongoHealthy(connection) };
    }

    const checks = async (): Promise<Record<string, boolean>> => {
      const out: Record<string, boolean> = {};
      // Each bounded (a server that is down may hang the check past the probe's timeout): ADR 0025.
      const [mongoOk, redisOk] = await Promise.all([mongo && boundedCheck(() => mongo.healthy()), redis && boundedCheck(() => pingRedis(redis))]);
      if (mongo) out.mongo = mongoOk === true;
      if (redis) out.redis = redisOk === true;
      return out;
    };
    return {
      name,
      logger,
      bus,
      transport,
      runtime: config,
      ...(mongo ? { mongo: mongo.connection } : {}),
      ...(redis ? { redis } : {}),
      checks,
      deadConsumers,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** QUIT, then wait until the socket is closed (status `end`), so nothing of Redis outlives close(). */
async function quitRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
  if ((client.status as string) !== 'end') await ended;
}

async function pingRedis(redis: Redis): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('redis ping timed out')), REDIS_PING_TIMEOUT_MS);
    });
    return (await Promise.race([redis.ping(), timeout])) === 'PONG';
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
