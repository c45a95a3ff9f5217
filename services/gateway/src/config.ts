import { resolve } from 'node:path';
import { commonEnvSchema, Joi, loadConfig } from '@switchyard/config';
import { parseServiceUrls } from '@switchyard/service-runtime';

/** The gateway's typed environment (the system config comes from users-bots, see live-config). */
export interface GatewayConfig {
  readonly NODE_ENV: 'development' | 'production' | 'test';
  readonly PORT: number;
  readonly HOST: string;
  readonly INTERNAL_SECRET: string;
  readonly INTERNAL_SECRET_SECONDARY?: string;
  /** service name → base URL, for the HTTP transport of the distributed runtime. */
  readonly SERVICE_URLS: Readonly<Record<string, string>>;
  readonly TRUST_PROXY: boolean;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly BUILD_NUMBER: string;
  readonly UPSTREAM_TIMEOUT_MS: number;
  readonly TOKEN_CACHE_TTL_MS: number;
  readonly TOKEN_CACHE_MAX_ENTRIES: number;
  readonly TOKEN_CACHE_LOCAL_TTL_MS: number;
  readonly USERS_ME_CACHE_TTL_MS: number;
  readonly CONFIG_WRITE_TIMEOUT_MS: number;
  readonly CONFIG_WRITE_SETTLE_MS: number;
  /** The built web console served at `/` (empty: not served). */
  readonly CONSOLE_DIR: string;
  /** Long-polls (GET /api/v4/events) held at once; more are answered 503 at once. Unset: the composition root decides. */
  readonly LONG_POLL_MAX_WAITING?: number;
}

/** apps/console/dist of this checkout, from services/gateway/{src,dist}/config. */
export const DEFAULT_CONSOLE_DIR = resolve(__dirname, '..', '..', '..', 'apps', 'console', 'dist');


const serviceUrls = Joi.string()
  .empty('')
  .default(() => ({}))
  .custom((value: string, helpers) => {
    try {
      return parseServiceUrls(value);
    } catch (error) {
      return helpers.message({ custom: error instanceof Error ? error.message : String(error) });
    }
  });

const schema = Joi.object<GatewayConfig>({
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
  INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
  INTERNAL_SECRET_SECONDARY: commonEnvSchema.INTERNAL_SECRET_SECONDARY,
  PORT: Joi.number().port().default(8065).description('Public HTTP port'),
  HOST: Joi.string().default('0.0.0.0').description('Interface to listen on'),
  SERVICE_URLS: serviceUrls.description('Comma-separated name=url of each service (distributed runtime), e.g. users-bots=http://127.0.0.1:8066'),
  TRUST_PROXY: Joi.boolean().default(false).description('Take the client address from X-Forwarded-For (behind a trusted proxy)'),
  BUILD_NUMBER: Joi.string().pattern(/^[A-Za-z0-9_-]+$/).default('dev').description('Build number shown in X-Version-Id'),
  UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100).default(60_000).description('How long a service may take to answer before 503'),
  TOKEN_CACHE_TTL_MS: Joi.number().integer().min(0).max(300_000).default(30_000).description('How long a resolved session is cached'),
  CONFIG_WRITE_TIMEOUT_MS: Joi.number().integer().min(0).max(30_000).default(3_000).description('Longest wait, before answering a config write, for its config.updated event to reach this gateway (0 = do not wait)'),
  CONFIG_WRITE_SETTLE_MS: Joi.number().integer().min(0).max(5_000).default(30).description('Extra wait after that event, for the other services consuming it'),
  TOKEN_CACHE_MAX_ENTRIES: Joi.number().integer().min(1).default(50_000).description('Bound on cached sessions (memory cache)'),
  TOKEN_CACHE_LOCAL_TTL_MS: Joi.number()
    .integer()
    .min(0)
    .max(10_000)
    .default(1_000)
    .description('With Redis: how long each replica also keeps a session in process (0 = off); bounds how long a replica that missed a users.events eviction still accepts a revoked token'),
  USERS_ME_CACHE_TTL_MS: Joi.number()
    .integer()
    .min(0)
    .max(10_000)
    .default(1_000)
    .description('How long a GET /api/v4/users/me answer is reused per session (0 = off); dropped with the user\'s sessions and on config changes, so it bounds only what a replica that missed a users.events eviction serves'),
  CONSOLE_DIR: Joi.string().allow('').default(DEFAULT_CONSOLE_DIR).description('Folder of the built web console, served at / (empty: no console)'),
  LONG_POLL_MAX_WAITING: Joi.number()
    .integer()
    .min(0)
    .description('Long-polls (GET /api/v4/events) this gateway holds at once; more are answered 503 api.events.too_many_waiting.app_error at once. Default (distributed): what its open-files limit allows, two sockets each after 1,024 (or half of a smaller limit) for everything else; embedded: no bound of its own (realtime\'s EVENT_MAX_WAITING)'),
});

/** Validates the environment, listing every problem at once. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>): GatewayConfig {
  return loadConfig(schema, env as NodeJS.ProcessEnv);
}
