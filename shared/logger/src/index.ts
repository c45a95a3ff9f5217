export { createLogger, createSilentLogger, type Logger, type LoggerOptions, type LogMeta } from './logger';
export { runWithRequestContext, currentRequestContext, type RequestContext } from './request-context';
export { redact, REDACTED } from './redact';
export { maskSecrets, MASKED } from './mask-secrets';
