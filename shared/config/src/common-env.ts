import Joi from 'joi';

/** Env keys every service understands. Spread into a service's own schema. */
export const commonEnvSchema = {
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development').description('Runtime mode'),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'info', 'debug').default('info').description('Minimum log level'),
  LOG_FORMAT: Joi.string().valid('json', 'pretty').default('json').description('Log line format'),
  INTERNAL_SECRET: Joi.string().min(16).description('HMAC secret shared by the gateway and services for identity headers (signs and verifies)'),
  INTERNAL_SECRET_SECONDARY: Joi.string()
    .min(16)
    .allow('')
    .description('During a rotation of INTERNAL_SECRET only: a second key also accepted (never used to sign); see docs/operations.md'),
  KAFKA_BROKERS: Joi.string().description('Comma-separated Kafka bootstrap servers (distributed runtime)'),
  MONGO_URL: Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }).description('MongoDB connection URL (distributed runtime)'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).description('Redis URL (distributed runtime)'),
};
