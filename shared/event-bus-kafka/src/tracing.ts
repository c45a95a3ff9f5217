import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { errorMessage } from './codec';

/**
 * W3C trace context over Kafka headers through `@opentelemetry/api` only: without a registered SDK
 * every call here is a cheap no-op, with one the bus produces `<topic> publish` / `<topic> process`
 * spans linked parent → child across services.
 */
const tracer = () => trace.getTracer('@switchyard/event-bus-kafka');

/** Header names the active propagator writes (`traceparent`, `tracestate`, `baggage` for W3C). */
function carriesTraceContext(headers: Readonly<Record<string, string>>): boolean {
  return propagation.fields().some((field) => headers[field] !== undefined) || headers.traceparent !== undefined;
}

/**
 * The caller's headers plus the active trace context. A caller that already put trace context in the
 * headers (an outbox relay forwarding the original request's context) keeps it: it is not overwritten.
 */
export function withTraceContext(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const carrier: Record<string, string> = { ...(headers ?? {}) };
  if (!carriesTraceContext(carrier)) propagation.inject(context.active(), carrier);
  return carrier;
}

async function inSpan<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    span.recordException(error instanceof Error ? error : new Error(errorMessage(error)));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Runs a publish inside a PRODUCER span (child of the active context), so injected headers point at it. */
export function publishSpan<T>(topic: string, attributes: Attributes, run: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `${topic} publish`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, ...attributes } },
    (span) => inSpan(span, run),
  );
}

/** Runs a handler inside the trace context carried by the message headers, in a CONSUMER span. */
export function processInTraceContext<T>(
  topic: string,
  headers: Readonly<Record<string, string>>,
  attributes: Attributes,
  run: () => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  return context.with(parent, () =>
    tracer().startActiveSpan(
      `${topic} process`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, ...attributes } },
      (span) => inSpan(span, run),
    ),
  );
}

/**
 * Runs a batch handler in a CONSUMER span. One message: inside its trace context, as `processInTraceContext`.
 * Several (each may come from another trace): a span of its own, linked to each message's context.
 */
export function processBatchInTraceContext<T>(
  topic: string,
  messages: readonly { readonly headers: Readonly<Record<string, string>> }[],
  attributes: Attributes,
  run: () => Promise<T>,
): Promise<T> {
  const batchAttributes = { ...attributes, 'messaging.batch.message_count': messages.length };
  const only = messages.length === 1 ? messages[0] : undefined;
  if (only) return processInTraceContext(topic, only.headers, batchAttributes, run);
  const links: Link[] = [];
  for (const message of messages) {
    const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, message.headers));
    if (linked && isSpanContextValid(linked)) links.push({ context: linked });
  }
  return context.with(ROOT_CONTEXT, () =>
    tracer().startActiveSpan(
      `${topic} process`,
      { kind: SpanKind.CONSUMER, links, attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, ...batchAttributes } },
      (span) => inSpan(span, run),
    ),
  );
}
