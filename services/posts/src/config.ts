import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';
import { fileSettingsEnvSchema, type FileSettingsEnv } from './file-settings-env';

/** The service's environment (only main.ts reads process.env). */
export interface PostsConfig extends ServiceEnv, FileSettingsEnv {
  readonly OUTBOX_SWEEP_INTERVAL_MS?: number;
  /** Where a relative FileSettings.Directory lives (the embedded runtime's DATA_DIR); unset: the working directory. */
  readonly DATA_DIR?: string;
}

export const postsEnvSchema = Joi.object<PostsConfig>({
  ...serviceEnvSchema('posts', 8067),
  ...fileSettingsEnvSchema,
  DATA_DIR: Joi.string().description('Base of a relative FileSettings.Directory (files on the local driver)'),
  OUTBOX_SWEEP_INTERVAL_MS: Joi.number()
    .integer()
    .min(0)
    .default(15_000)
    .description('How often posts with unpublished events (the outbox) are swept and republished; 0 = only at start'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadPostsConfig(env: Env): Readonly<PostsConfig> {
  return loadConfig(postsEnvSchema, env);
}
