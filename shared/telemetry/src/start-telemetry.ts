import type { startNodeSdk } from './node-sdk';

/** Where the started SDK is kept: the service's main module loads this package apart from instrumentation.ts. */
const ACTIVE = Symbol.for('switchyard.telemetry.active');

export interface TelemetryHandle {
  readonly enabled: boolean;
  shutdown(): Promise<void>;
}

/** Tracing is on when the standard OTEL_* variables choose an exporter, and not disabled. */
export function telemetryWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER !== undefined && env.OTEL_TRACES_EXPORTER !== 'none') return true;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/**
 * Starts the OpenTelemetry Node SDK for one service (node-sdk.ts), loaded only now that tracing is wanted.
 * Must run before the service's other modules load (each service's instrumentation.ts, via `node --require`),
 * hence a synchronous `require` rather than `import()`.
 * Kafka messages carry the context in their headers (the Kafka event-bus adapter injects and extracts it).
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): TelemetryHandle {
  if (!telemetryWanted(env)) return { enabled: false, shutdown: async () => undefined };
  env.OTEL_SERVICE_NAME ??= serviceName;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on (see above)
  const sdk = (require('./node-sdk') as { startNodeSdk: typeof startNodeSdk }).startNodeSdk(env.OTEL_SERVICE_NAME);
  let stopped: Promise<void> | undefined;
  const handle: TelemetryHandle = { enabled: true, shutdown: () => (stopped ??= sdk.shutdown()) };
  (globalThis as Record<symbol, unknown>)[ACTIVE] = handle;
  return handle;
}

/** Flushes and stops the SDK started by `startTelemetry` in this process (no-op when none): call it last on shutdown. */
export async function shutdownTelemetry(): Promise<void> {
  const handle = (globalThis as Record<symbol, unknown>)[ACTIVE] as TelemetryHandle | undefined;
  await handle?.shutdown();
}
