import { commonEnvSchema, Joi, loadConfig } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface OutgoingDispatchConfig {
  readonly PORT: number;
  readonly INTERNAL_SECRET: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly NODE_ENV?: 'development' | 'production' | 'test';
}

export const outgoingDispatchEnvSchema = Joi.object<OutgoingDispatchConfig>({
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
  INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
  PORT: Joi.number().integer().min(0).max(65535).default(8069).description('HTTP port of the outgoing-dispatch service'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadOutgoingDispatchConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Readonly<OutgoingDispatchConfig> {
  return loadConfig(outgoingDispatchEnvSchema, env as NodeJS.ProcessEnv);
}
