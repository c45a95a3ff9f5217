import { commonEnvSchema, Joi, loadConfig } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface UsersBotsConfig {
  readonly PORT: number;
  readonly INTERNAL_SECRET: string;
  readonly INTERNAL_SECRET_SECONDARY?: string;
  readonly LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug';
  readonly LOG_FORMAT: 'json' | 'pretty';
  readonly NODE_ENV?: 'development' | 'production' | 'test';
  /** The client config's BuildNumber (the gateway's X-Version-Id reads the same variable). */
  readonly BUILD_NUMBER?: string;
}

export const usersBotsEnvSchema = Joi.object<UsersBotsConfig>({
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  LOG_FORMAT: commonEnvSchema.LOG_FORMAT,
  INTERNAL_SECRET: commonEnvSchema.INTERNAL_SECRET.required(),
  INTERNAL_SECRET_SECONDARY: commonEnvSchema.INTERNAL_SECRET_SECONDARY,
  BUILD_NUMBER: Joi.string().pattern(/^[A-Za-z0-9_-]+$/).default('dev').description('Build number shown in the client config'),
  PORT: Joi.number().integer().min(0).max(65535).default(8066).description('HTTP port of the users-bots service'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadUsersBotsConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Readonly<UsersBotsConfig> {
  return loadConfig(usersBotsEnvSchema, env as NodeJS.ProcessEnv);
}
