import { trace } from '@opentelemetry/api';
import winston from 'winston';
import { maskSecrets } from './mask-secrets';
import { redact } from './redact';

export type LogMeta = Record<string, unknown>;

/** The logger every module receives by injection. */
export interface Logger {
  error(message: string, meta?: LogMeta): void;
  warn(message: string, meta?: LogMeta): void;
  info(message: string, meta?: LogMeta): void;
  debug(message: string, meta?: LogMeta): void;
  child(meta: LogMeta): Logger;
  isDebugEnabled(): boolean;
}

export interface LoggerOptions {
  readonly service: string;
  readonly level?: string;
  /** `json` (default, production) or `pretty`. */
  readonly format?: 'json' | 'pretty';
  /** For tests: where lines go instead of stdout. */
  readonly sink?: (line: Record<string, unknown>) => void;
  readonly silent?: boolean;
}

/**
 * The active span's ids, when tracing is on. The request id is not looked up here: lines written while
 * handling a request name it themselves (`request_id`, or a logger from `child({ request_id })`), see ADR 0042.
 */
const addTraceIds = winston.format((info) => {
  const span = trace.getActiveSpan();
  const spanContext = span?.spanContext();
  if (spanContext !== undefined && info.trace_id === undefined) {
    info.trace_id = spanContext.traceId;
    info.span_id = spanContext.spanId;
  }
  return info;
});

const redactSecrets = winston.format((info) => {
  if (typeof info.message === 'string') info.message = maskSecrets(info.message);
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'message') continue;
    const cleaned = redact({ [key]: info[key] }) as Record<string, unknown>;
    info[key] = cleaned[key];
  }
  return info;
});

class SinkTransport extends winston.transports.Console {
  public constructor(private readonly sink: (line: Record<string, unknown>) => void) {
    super();
  }
  public override log(info: Record<string, unknown>, next: () => void): void {
    const { [Symbol.for('message') as unknown as string]: _formatted, ...rest } = info;
    this.sink(JSON.parse(JSON.stringify(rest)) as Record<string, unknown>);
    next();
  }
}

export function createLogger(options: LoggerOptions): Logger {
  const format = winston.format.combine(
    addTraceIds(),
    redactSecrets(),
    winston.format.timestamp(),
    options.format === 'pretty' ? winston.format.simple() : winston.format.json(),
  );
  const transport = options.sink ? new SinkTransport(options.sink) : new winston.transports.Console();
  const root = winston.createLogger({
    level: options.level ?? 'info',
    defaultMeta: { service: options.service },
    format,
    transports: [transport],
    silent: options.silent ?? false,
  });
  return wrap(root);
}

function wrap(inner: winston.Logger): Logger {
  return {
    // Level checks first: formatting and redaction cost nothing for lines below the level.
    error: (message, meta) => inner.isLevelEnabled('error') && void inner.error(message, meta),
    warn: (message, meta) => inner.isLevelEnabled('warn') && void inner.warn(message, meta),
    info: (message, meta) => inner.isLevelEnabled('info') && void inner.info(message, meta),
    debug: (message, meta) => inner.isLevelEnabled('debug') && void inner.debug(message, meta),
    child: (meta) => wrap(inner.child(meta)),
    isDebugEnabled: () => inner.isLevelEnabled('debug'),
  };
}

/** A logger that writes nothing, for tests that do not inspect logs. */
export function createSilentLogger(): Logger {
  return createLogger({ service: 'test', silent: true });
}
