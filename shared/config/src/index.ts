export { loadConfig, ConfigError, Joi, type Env } from './load-config';
export { commonEnvSchema } from './common-env';
export { serviceEnvSchema, type ServiceEnv } from './service-env';
