import { commonEnvSchema, Joi, loadConfig } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface PostsConfig {
  readonly PORT: number;
  readonly INTERNAL_SECRET: string;
  readonly INTERNAL_SECRET_SECONDARY?: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly NODE_ENV?: 'development' | 'production' | 'test';
  readonly OUTBOX_SWEEP_INTERVAL_MS?: number;
}

export const postsEnvSchema = Joi.object<PostsConfig>({
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
  INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
  INTERNAL_SECRET_SECONDARY: commonEnvSchema.INTERNAL_SECRET_SECONDARY,
  PORT: Joi.number().integer().min(0).max(65535).default(8067).description('HTTP port of the posts service'),
  OUTBOX_SWEEP_INTERVAL_MS: Joi.number()
    .integer()
    .min(0)
    .default(15_000)
    .description('How often posts with unpublished events (the outbox) are swept and republished; 0 = only at start'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadPostsConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Readonly<PostsConfig> {
  return loadConfig(postsEnvSchema, env as NodeJS.ProcessEnv);
}
