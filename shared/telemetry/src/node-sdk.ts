import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/**
 * The OpenTelemetry Node SDK for one service, started: HTTP in and out (node:http and undici, so trace
 * context crosses every service hop), exporter chosen by the standard OTEL_* environment. Its own module,
 * required only when tracing is on: the SDK and its exporters are ~460 modules and ~11 MB of heap that a
 * process without tracing never loads.
 */
export function startNodeSdk(serviceName: string): { shutdown(): Promise<void> } {
  const sdk = new NodeSDK({
    serviceName,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => (req.url ?? '').startsWith('/health/') }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}
