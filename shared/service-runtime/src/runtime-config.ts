import { readFileSync } from 'node:fs';
import { commonEnvSchema, ConfigError, Joi, loadConfig } from '@switchyard/config';
import { kafkaSettings, kafkaSettingsSchema, type KafkaSettings, type RawKafkaSettings } from './kafka-settings';
import { productionSecretProblems } from './secret-guard';

/** The environment every service process understands (its own keys come from its config.ts). */
export interface RuntimeConfig {
  readonly PORT: number;
  readonly HOST: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  /** service name → base URL (HTTP transport). */
  readonly SERVICE_URLS: Readonly<Record<string, string>>;
  readonly UPSTREAM_TIMEOUT_MS: number;
  readonly KAFKA_BROKERS?: readonly string[];
  readonly KAFKA_ENSURE_TOPICS: boolean;
  /** Prefix of this deployment's topics and consumer groups ('' = the contract names). */
  readonly KAFKA_NAMESPACE: string;
  /** topic → partitions, for topics this process creates when they are missing. */
  readonly KAFKA_TOPIC_PARTITIONS: Readonly<Record<string, number>>;
  readonly KAFKA_DEFAULT_PARTITIONS: number;
  readonly KAFKA_LOG_LEVEL: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  readonly KAFKA_MAX_WAIT_MS: number;
  readonly KAFKA_HEARTBEAT_INTERVAL_MS: number;
  readonly KAFKA_SESSION_TIMEOUT_MS: number;
  readonly KAFKA_FETCH_LINGER_MS: number;
  readonly KAFKA_COMMIT_INTERVAL_MS: number;
  /** TLS, SASL, replication and retention (KAFKA_SSL*, KAFKA_SASL_*, KAFKA_REPLICATION_FACTOR, ...). */
  readonly kafka: KafkaSettings;
  readonly MONGO_URL?: string;
  readonly MONGO_DB: string;
  readonly REDIS_URL?: string;
  readonly REDIS_KEY_PREFIX: string;
  readonly SHUTDOWN_TIMEOUT_MS: number;
  /** Serve Prometheus metrics on their own listener (never on PORT). */
  readonly METRICS_ENABLED: boolean;
  /** The metrics listener's port when set (METRICS_PORT); else runService uses PORT + 1000 (see metricsPortOf). */
  readonly METRICS_PORT?: number;
  readonly METRICS_HOST: string;
  /** How long Mongo/Redis must fail before /health/ready says 503 (a shared blip does not unready every pod). */
  readonly READINESS_GRACE_MS: number;
  /** Listener limits (http-kit listen): whole request, headers, concurrent connections of this process. */
  readonly HTTP_REQUEST_TIMEOUT_MS: number;
  readonly HTTP_HEADERS_TIMEOUT_MS: number;
  readonly HTTP_MAX_CONNECTIONS: number;
}

/** `users-bots=http://127.0.0.1:8066,posts=http://127.0.0.1:8067` → `{ 'users-bots': 'http://…', posts: 'http://…' }`. */
export function parseServiceUrls(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of value.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (at <= 0 || url === '') throw new Error(`"${entry}" is not name=url`);
    // Replicas of one service: name=url1|url2 (tried in turn; see HttpTransport).
    for (const one of url.split('|').map((u) => u.trim())) {
      const parsed = new URL(one);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${one}" is not an http(s) URL`);
    }
    out[name] = url.split('|').map((u) => u.trim()).join('|');
  }
  return out;
}

/**
 * Topic partition counts, either inline (`posts.events=6,users.events=3`) or in the format of
 * deploy/local/topics.txt (`<name> <partitions>` per line, blank lines and `#` comments ignored).
 */
export function parseTopicPartitions(value: string): Record<string, number> {
  const out: Record<string, number> = {};
  const entries = value.includes('\n') || !value.includes('=') ? value.split('\n') : value.split(',');
  for (const raw of entries) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z0-9._-]+)\s*(?:=|\s)\s*(\d+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`"${line}" is not <topic>=<partitions>`);
    const partitions = Number(match[2]);
    if (partitions < 1) throw new Error(`"${line}": partitions must be at least 1`);
    out[match[1]] = partitions;
  }
  return out;
}

/** `posts.events=604800000,users.events=-1` → retention.ms per topic (-1 = forever). */
export function parseTopicRetention(value: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([A-Za-z0-9._-]+)\s*=\s*(-1|\d+)$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new Error(`"${entry}" is not <topic>=<retention ms>`);
    out[match[1]] = Number(match[2]);
  }
  return out;
}

const fromParser = (parse: (value: string) => unknown) =>
  Joi.string()
    .empty('')
    .default(() => ({}))
    .custom((value: string, helpers) => {
      try {
        return parse(value);
      } catch (error) {
        return helpers.message({ custom: error instanceof Error ? error.message : String(error) });
      }
    });

const defaultDbName = (service: string): string => `switchyard_${service.replace(/[^A-Za-z0-9]/g, '_')}`;

type RawRuntimeConfig = Omit<RuntimeConfig, 'kafka' | 'METRICS_HOST'> & RawKafkaSettings & { readonly KAFKA_TOPICS_FILE?: string; readonly METRICS_HOST?: string };

function runtimeSchema(service: string, defaultPort: number): Joi.ObjectSchema<RawRuntimeConfig> {
  return Joi.object<RawRuntimeConfig>({
    PORT: Joi.number().port().default(defaultPort).description('HTTP port of this service'),
    HOST: Joi.string().default('0.0.0.0').description('Interface to listen on'),
    LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
    LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
    SERVICE_URLS: fromParser(parseServiceUrls).description('Comma-separated name=url of the services this one calls, e.g. users-bots=http://127.0.0.1:8066; replicas as name=url1|url2'),
    UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100).default(60_000).description('Timeout of calls to other services'),
    KAFKA_BROKERS: Joi.string()
      .empty('')
      .custom((value: string) => value.split(',').map((b) => b.trim()).filter((b) => b !== ''))
      .description('Comma-separated Kafka bootstrap servers; unset = in-process memory bus'),
    KAFKA_NAMESPACE: Joi.string().allow('').pattern(/^[A-Za-z0-9._-]*$/).max(64).default('').description('Prefix of topics and consumer groups, to share one Kafka between deployments (e.g. test runs)'),
    KAFKA_ENSURE_TOPICS: Joi.boolean().default(true).description('Create missing topics (and their .dlq) at start'),
    KAFKA_TOPIC_PARTITIONS: fromParser(parseTopicPartitions).description('Partitions per topic: "posts.events=6,users.events=3" (or the lines of a topics file)'),
    KAFKA_TOPICS_FILE: Joi.string().empty('').description('File in deploy/local/topics.txt format ("<topic> <partitions>" per line) read for partition counts'),
    KAFKA_DEFAULT_PARTITIONS: Joi.number().integer().min(1).default(3).description('Partitions of a created topic not listed elsewhere'),
    KAFKA_LOG_LEVEL: Joi.string().valid('nothing', 'error', 'warn', 'info', 'debug').default('warn').description('Level of kafkajs\' own log lines'),
    KAFKA_MAX_WAIT_MS: Joi.number().integer().min(10).max(5_000).default(3000).description('Long-poll time of an idle consumer fetch (the broker answers at once when a message arrives); also how long an idle consumer takes to notice a rebalance or to stop, and its heartbeat period (at most half the 10 s session timeout)'),
    KAFKA_HEARTBEAT_INTERVAL_MS: Joi.number().integer().min(100).max(5_000).default(1000).description('Consumer group heartbeat interval (well below KAFKA_SESSION_TIMEOUT_MS)'),
    KAFKA_SESSION_TIMEOUT_MS: Joi.number().integer().min(6_000).max(300_000).default(10_000).description('A consumer silent this long leaves its group (its partitions move to the others); the broker bounds it (group.min/max.session.timeout.ms)'),
    KAFKA_FETCH_LINGER_MS: Joi.number().integer().min(0).max(100).default(5).description('A consumer that got messages fetches again at the earliest this long after its previous fetch (several messages per fetch request; at most this much latency per hop; 0 = at once)'),
    KAFKA_COMMIT_INTERVAL_MS: Joi.number().integer().min(10).max(5_000).default(250).description('Handled offsets of a consumer are committed together at most this long after they were handled (a crash handles up to this much again)'),
    ...kafkaSettingsSchema,
    KAFKA_TOPIC_RETENTION_MS: fromParser(parseTopicRetention).description('retention.ms per created topic: "posts.events=604800000,users.events=-1"'),
    MONGO_URL: commonEnvSchema.MONGO_URL.empty(''),
    MONGO_DB: Joi.string().pattern(/^[A-Za-z0-9_-]{1,63}$/).default(defaultDbName(service)).description('Database of this service (never shared)'),
    REDIS_URL: commonEnvSchema.REDIS_URL.empty(''),
    REDIS_KEY_PREFIX: Joi.string().allow('').default('sy:').description('Prefix of every Redis key this process writes'),
    SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(100).default(15_000).description('Hard deadline of a graceful shutdown'),
    READINESS_GRACE_MS: Joi.number().integer().min(0).default(20_000).description('How long Mongo or Redis must fail before /health/ready answers 503'),
    METRICS_ENABLED: Joi.boolean().default(true).description('Serve Prometheus metrics at /metrics on the metrics listener'),
    METRICS_PORT: Joi.number().port().description('Port of the metrics listener (default PORT + 1000: gateway 9065, users-bots 9066, ...; taken → ephemeral)'),
    METRICS_HOST: Joi.string().empty('').description('Interface of the metrics listener (default HOST)'),
    HTTP_REQUEST_TIMEOUT_MS: Joi.number().integer().min(1_000).default(30_000).description('Longest time to receive a whole request (headers and body) before 408'),
    HTTP_HEADERS_TIMEOUT_MS: Joi.number().integer().min(500).default(10_000).description('Longest time to receive the request headers before 408 (slow clients)'),
    HTTP_MAX_CONNECTIONS: Joi.number().integer().min(1).default(10_000).description('Concurrent connections this process accepts; more are closed at once'),
  });
}

/** Validates the runtime keys; problems come back as a list, not thrown, so they merge with the service's. */
export function loadRuntimeConfig(
  env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>,
  service: string,
  defaultPort: number,
): { config?: RuntimeConfig; problems: string[] } {
  try {
    const raw = loadConfig(runtimeSchema(service, defaultPort), env as NodeJS.ProcessEnv);
    const problems = productionSecretProblems(env);
    const kafka = kafkaSettings(raw);
    problems.push(...kafka.problems);
    let partitions = raw.KAFKA_TOPIC_PARTITIONS;
    if (raw.KAFKA_TOPICS_FILE !== undefined) {
      try {
        partitions = { ...parseTopicPartitions(readFileSync(raw.KAFKA_TOPICS_FILE, 'utf8')), ...raw.KAFKA_TOPIC_PARTITIONS };
      } catch (error) {
        problems.push(`KAFKA_TOPICS_FILE: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (problems.length > 0 || !kafka.settings) return { problems };
    return { config: Object.freeze(runtimeOf(raw, partitions, kafka.settings)), problems: [] };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: [...error.problems, ...productionSecretProblems(env)] };
    throw error;
  }
}

function runtimeOf(raw: RawRuntimeConfig, partitions: Readonly<Record<string, number>>, kafka: KafkaSettings): RuntimeConfig {
  return {
    PORT: raw.PORT,
    HOST: raw.HOST,
    LOG_LEVEL: raw.LOG_LEVEL,
    LOG_FORMAT: raw.LOG_FORMAT,
    SERVICE_URLS: raw.SERVICE_URLS,
    UPSTREAM_TIMEOUT_MS: raw.UPSTREAM_TIMEOUT_MS,
    ...(raw.KAFKA_BROKERS ? { KAFKA_BROKERS: raw.KAFKA_BROKERS } : {}),
    KAFKA_ENSURE_TOPICS: raw.KAFKA_ENSURE_TOPICS,
    KAFKA_NAMESPACE: raw.KAFKA_NAMESPACE,
    KAFKA_TOPIC_PARTITIONS: partitions,
    KAFKA_DEFAULT_PARTITIONS: raw.KAFKA_DEFAULT_PARTITIONS,
    KAFKA_LOG_LEVEL: raw.KAFKA_LOG_LEVEL,
    KAFKA_MAX_WAIT_MS: raw.KAFKA_MAX_WAIT_MS,
    KAFKA_HEARTBEAT_INTERVAL_MS: raw.KAFKA_HEARTBEAT_INTERVAL_MS,
    KAFKA_SESSION_TIMEOUT_MS: raw.KAFKA_SESSION_TIMEOUT_MS,
    KAFKA_FETCH_LINGER_MS: raw.KAFKA_FETCH_LINGER_MS,
    KAFKA_COMMIT_INTERVAL_MS: raw.KAFKA_COMMIT_INTERVAL_MS,
    kafka,
    ...(raw.MONGO_URL ? { MONGO_URL: raw.MONGO_URL } : {}),
    MONGO_DB: raw.MONGO_DB,
    ...(raw.REDIS_URL ? { REDIS_URL: raw.REDIS_URL } : {}),
    REDIS_KEY_PREFIX: raw.REDIS_KEY_PREFIX,
    SHUTDOWN_TIMEOUT_MS: raw.SHUTDOWN_TIMEOUT_MS,
    METRICS_ENABLED: raw.METRICS_ENABLED,
    READINESS_GRACE_MS: raw.READINESS_GRACE_MS,
    HTTP_REQUEST_TIMEOUT_MS: raw.HTTP_REQUEST_TIMEOUT_MS,
    HTTP_HEADERS_TIMEOUT_MS: raw.HTTP_HEADERS_TIMEOUT_MS,
    HTTP_MAX_CONNECTIONS: raw.HTTP_MAX_CONNECTIONS,
    ...(raw.METRICS_PORT !== undefined ? { METRICS_PORT: raw.METRICS_PORT } : {}),
    METRICS_HOST: raw.METRICS_HOST ?? raw.HOST,
  };
}

/** Runs both loaders and throws one ConfigError listing every problem of both. */
export function loadAllConfig<C>(
  env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>,
  service: string,
  defaultPort: number,
  loadServiceConfig: (env: NodeJS.ProcessEnv) => C,
): { runtime: RuntimeConfig; service: C } {
  const problems: string[] = [];
  const runtime = loadRuntimeConfig(env, service, defaultPort);
  problems.push(...runtime.problems);
  let serviceConfig: C | undefined;
  try {
    serviceConfig = loadServiceConfig(env as NodeJS.ProcessEnv);
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof Error && error.name === 'ConfigError' && Array.isArray((error as ConfigError).problems))) {
      for (const problem of (error as ConfigError).problems) if (!problems.includes(problem)) problems.push(problem);
    } else {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0 || !runtime.config || serviceConfig === undefined) throw new ConfigError(problems);
  return { runtime: runtime.config, service: serviceConfig };
}
