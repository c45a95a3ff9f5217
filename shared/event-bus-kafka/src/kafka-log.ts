import { logLevel, type logCreator } from 'kafkajs';

/** What the adapter logs through: a subset of `@switchyard/logger`'s Logger, so any logger fits. */
export interface KafkaEventBusLogger {
  error(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
}

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export const silentLogger: KafkaEventBusLogger = { error: () => undefined, warn: () => undefined, info: () => undefined };

export function toKafkaLogLevel(level: KafkaLogLevel): logLevel {
  switch (level) {
    case 'nothing':
      return logLevel.NOTHING;
    case 'error':
      return logLevel.ERROR;
    case 'warn':
      return logLevel.WARN;
    case 'info':
      return logLevel.INFO;
    case 'debug':
      return logLevel.DEBUG;
  }
}

export type RoutedLevel = 'error' | 'warn' | 'info' | 'none';

/**
 * Where one kafkajs line goes. kafkajs logs every error response of the protocol at ERROR level
 * (`Connection` namespace, "Response Heartbeat(...)"), although it retries or rejoins on its own and
 * the adapter logs what reaches it: those become `warn`, and the rebalance ones (every member sees
 * them whenever the group changes) `info`. DEBUG and INFO both go to `info`.
 */
export function routeKafkaLog(namespace: string, level: logLevel, message: string, error?: unknown): RoutedLevel {
  if (level === logLevel.NOTHING) return 'none';
  if (level === logLevel.ERROR) {
    if (namespace !== 'Connection' || !message.startsWith('Response ')) return 'error';
    return /rebalanc/i.test(String(error ?? '')) ? 'info' : 'warn';
  }
  return level === logLevel.WARN ? 'warn' : 'info';
}

/** kafkajs' own log lines, routed to the injected logger (see `routeKafkaLog`). */
export function kafkaLogCreator(logger: KafkaEventBusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log as typeof log & { timestamp?: unknown; logger?: unknown };
      const text = String(message);
      const meta = { component: 'kafkajs', namespace, ...extra };
      const route = routeKafkaLog(namespace, level, text, (extra as { error?: unknown }).error);
      if (route !== 'none') logger[route](`kafkajs: ${text}`, meta);
    };
}
