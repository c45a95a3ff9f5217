import { commonEnvSchema, Joi, loadConfig } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface IncomingHooksConfig {
  readonly PORT: number;
  readonly INTERNAL_SECRET: string;
  readonly INTERNAL_SECRET_SECONDARY?: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly NODE_ENV?: 'development' | 'production' | 'test';
  /** How long `POST /hooks/{key}` waits for its posts to be stored (`IncomingWebhookAckMode=stored`). */
  readonly STORED_ACK_TIMEOUT_MS?: number;
}

export const incomingHooksEnvSchema = Joi.object<IncomingHooksConfig>({
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
  INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
  INTERNAL_SECRET_SECONDARY: commonEnvSchema.INTERNAL_SECRET_SECONDARY,
  PORT: Joi.number().integer().min(0).max(65535).default(8068).description('HTTP port of the incoming-hooks service'),
  STORED_ACK_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .max(120_000)
    .default(10_000)
    .description('how long POST /hooks/{key} waits for posts to store its posts before answering 503 (IncomingWebhookAckMode=stored)'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadIncomingHooksConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Readonly<IncomingHooksConfig> {
  return loadConfig(incomingHooksEnvSchema, env as NodeJS.ProcessEnv);
}
