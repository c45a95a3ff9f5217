import type { IncomingMessage } from 'node:http';
import type { Logger } from '@switchyard/logger';

/**
 * The logger for code below an entry point that logs while handling `req` (a use case, an adapter called
 * inside the request): every line names the request's id. Entry points that hold `req` name it in the
 * line itself (`request_id: req.requestId`). Explicit instead of an AsyncLocalStorage (ADR 0042).
 */
export function requestLogger(logger: Logger, req: IncomingMessage & { readonly requestId?: string }): Logger {
  return logger.child({ request_id: req.requestId });
}
