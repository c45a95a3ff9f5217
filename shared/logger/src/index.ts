export { createLogger, createSilentLogger, type Logger, type LoggerOptions, type LogMeta } from './logger';
export { redact, REDACTED } from './redact';
export { maskSecrets, MASKED } from './mask-secrets';
