import { readFileSync } from 'node:fs';
import { commonEnvSchema, ConfigError, Joi, loadConfig } from '@switchyard/config';

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
  readonly MONGO_URL?: string;
  readonly MONGO_DB: string;
  readonly REDIS_URL?: string;
  readonly REDIS_KEY_PREFIX: string;
  readonly SHUTDOWN_TIMEOUT_MS: number;
}

/** `users-bots=http://127.0.0.1:8066,posts=http://127.0.0.1:8067` → `{ 'users-bots': 'http://…', posts: 'http://…' }`. */
export function parseServiceUrls(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of value.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (at <= 0 || url === '') throw new Error(`"${entry}" is not name=url`);
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${url}" is not an http(s) URL`);
    out[name] = url;
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

type RawRuntimeConfig = RuntimeConfig & { readonly KAFKA_TOPICS_FILE?: string };

function runtimeSchema(service: string, defaultPort: number): Joi.ObjectSchema<RawRuntimeConfig> {
  return Joi.object<RawRuntimeConfig>({
    PORT: Joi.number().port().default(defaultPort).description('HTTP port of this service'),
    HOST: Joi.string().default('0.0.0.0').description('Interface to listen on'),
    LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
    LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
    SERVICE_URLS: fromParser(parseServiceUrls).description('Comma-separated name=url of the services this one calls, e.g. users-bots=http://127.0.0.1:8066'),
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
    MONGO_URL: commonEnvSchema.MONGO_URL.empty(''),
    MONGO_DB: Joi.string().pattern(/^[A-Za-z0-9_-]{1,63}$/).default(defaultDbName(service)).description('Database of this service (never shared)'),
    REDIS_URL: commonEnvSchema.REDIS_URL.empty(''),
    REDIS_KEY_PREFIX: Joi.string().allow('').default('sy:').description('Prefix of every Redis key this process writes'),
    SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(100).default(15_000).description('Hard deadline of a graceful shutdown'),
  });
}

/** Validates the runtime keys; problems come back as a list, not thrown, so they merge with the service's. */
export function loadRuntimeConfig(
  env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>,
  service: string,
  defaultPort: number,
): { config?: RuntimeConfig; problems: string[] } {
  try {
    const config = loadConfig(runtimeSchema(service, defaultPort), env as NodeJS.ProcessEnv);
    if (config.KAFKA_TOPICS_FILE === undefined) return { config, problems: [] };
    let fromFile: Record<string, number>;
    try {
      fromFile = parseTopicPartitions(readFileSync(config.KAFKA_TOPICS_FILE, 'utf8'));
    } catch (error) {
      return { problems: [`KAFKA_TOPICS_FILE: ${error instanceof Error ? error.message : String(error)}`] };
    }
    const { KAFKA_TOPICS_FILE: _file, ...rest } = config;
    return { config: Object.freeze({ ...rest, KAFKA_TOPIC_PARTITIONS: { ...fromFile, ...config.KAFKA_TOPIC_PARTITIONS } }), problems: [] };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: [...error.problems] };
    throw error;
  }
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
