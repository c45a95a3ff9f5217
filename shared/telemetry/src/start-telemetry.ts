import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

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
 * Starts the OpenTelemetry Node SDK for one service: HTTP in and out (node:http and undici, so trace
 * context crosses every service hop), exporter chosen by the standard OTEL_* environment. Must run
 * before the service's other modules load (each service's instrumentation.ts, via `node --require`).
 * Kafka messages carry the context in their headers (the Kafka event-bus adapter injects and extracts it).
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): TelemetryHandle {
  if (!telemetryWanted(env)) return { enabled: false, shutdown: async () => undefined };
  env.OTEL_SERVICE_NAME ??= serviceName;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => (req.url ?? '').startsWith('/health/') }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
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
