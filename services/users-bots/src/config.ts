import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface UsersBotsConfig extends ServiceEnv {
  /** The client config's BuildNumber (the gateway's X-Version-Id reads the same variable). */
  readonly BUILD_NUMBER?: string;
}

export const usersBotsEnvSchema = Joi.object<UsersBotsConfig>({
  ...serviceEnvSchema('users-bots', 8066),
  BUILD_NUMBER: Joi.string().pattern(/^[A-Za-z0-9_-]+$/).default('dev').description('Build number shown in the client config'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadUsersBotsConfig(env: Env): Readonly<UsersBotsConfig> {
  return loadConfig(usersBotsEnvSchema, env);
}
