import Joi from 'joi';
import { commonEnvSchema } from './common-env';

/** The env keys of every service behind the gateway (each service's config interface extends it). */
export interface ServiceEnv {
  readonly PORT: number;
  readonly INTERNAL_SECRET: string;
  readonly INTERNAL_SECRET_SECONDARY?: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly NODE_ENV?: 'development' | 'production' | 'test';
}

/**
 * The joi keys of `ServiceEnv`, to spread first into a service's own schema:
 * `Joi.object<PostsConfig>({ ...serviceEnvSchema('posts', 8067), OUTBOX_SWEEP_INTERVAL_MS: ... })`.
 */
export function serviceEnvSchema(service: string, defaultPort: number, portDescription = `HTTP port of the ${service} service`) {
  return {
    NODE_ENV: commonEnvSchema.NODE_ENV,
    LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
    LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
    INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
    INTERNAL_SECRET_SECONDARY: commonEnvSchema.INTERNAL_SECRET_SECONDARY,
    PORT: Joi.number().integer().min(0).max(65535).default(defaultPort).description(portDescription),
  };
}
