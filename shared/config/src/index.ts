export { loadConfig, ConfigError, Joi } from './load-config';
export { commonEnvSchema } from './common-env';
