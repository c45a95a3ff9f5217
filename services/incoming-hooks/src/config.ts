import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface IncomingHooksConfig extends ServiceEnv {
  /** How long `POST /hooks/{key}` waits for its posts to be stored (`IncomingWebhookAckMode=stored`). */
  readonly STORED_ACK_TIMEOUT_MS?: number;
}

export const incomingHooksEnvSchema = Joi.object<IncomingHooksConfig>({
  ...serviceEnvSchema('incoming-hooks', 8068),
  STORED_ACK_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .max(120_000)
    .default(10_000)
    .description('how long POST /hooks/{key} waits for posts to store its posts before answering 503 (IncomingWebhookAckMode=stored)'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadIncomingHooksConfig(env: Env): Readonly<IncomingHooksConfig> {
  return loadConfig(incomingHooksEnvSchema, env);
}
