import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';
import { DEFAULT_IMAGE_THREAD_NICE } from './adapters/images/image-thread-priority';
import { fileSettingsEnvSchema, type FileSettingsEnv } from './file-settings-env';

/** The service's environment (only main.ts reads process.env). */
export interface PostsConfig extends ServiceEnv, FileSettingsEnv {
  readonly OUTBOX_SWEEP_INTERVAL_MS?: number;
  /** Where a relative FileSettings.Directory lives (the embedded runtime's DATA_DIR); unset: the working directory. */
  readonly DATA_DIR?: string;
  /** The nice value of libvips' worker threads (image work yields the CPU to the event loop; ADR 0029). */
  readonly IMAGE_THREAD_NICE?: number;
}

export const postsEnvSchema = Joi.object<PostsConfig>({
  ...serviceEnvSchema('posts', 8067),
  ...fileSettingsEnvSchema,
  DATA_DIR: Joi.string().description('Base of a relative FileSettings.Directory (files on the local driver)'),
  IMAGE_THREAD_NICE: Joi.number()
    .integer()
    .min(0)
    .max(19)
    .default(DEFAULT_IMAGE_THREAD_NICE)
    .description("Nice value of libvips' worker threads (Linux): above 0 the event loop's thread gets a CPU before image work; 0 = as the rest of the process"),
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
