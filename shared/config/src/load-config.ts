import Joi from 'joi';

/** An environment: `process.env` or a plain record (tests, the embedded runtime). */
export type Env = NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  public constructor(public readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables against a joi schema (keys are env names, each with a description),
 * reporting every problem at once, and returns the typed, frozen result.
 */
export function loadConfig<T extends object>(schema: Joi.ObjectSchema<T>, env: Env): Readonly<T> {
  const { value, error } = schema.validate(env, {
    abortEarly: false,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) throw new ConfigError(error.details.map((d) => `${d.path.join('.')}: ${d.message}`));
  return Object.freeze(value);
}

export { Joi };
