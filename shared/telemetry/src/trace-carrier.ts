import { propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/** W3C trace context as message headers (`traceparent`, `tracestate`, as the active propagator writes them). */
export type TraceCarrier = Readonly<Record<string, string>>;

/**
 * The trace context a message's headers carry, as the registered propagator reads and writes it (so only
 * its own fields, normalised); undefined when they carry none, or when no propagator is registered (no
 * telemetry: nothing to keep). For work done for several messages at once that must still continue each
 * message's own trace (an event published later for one of them, e.g. from an outbox).
 */
export function traceCarrierOf(headers: Readonly<Record<string, string>>): TraceCarrier | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(propagation.extract(ROOT_CONTEXT, headers), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}
