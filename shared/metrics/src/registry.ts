import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process, shared by every copy of this package (the embedded runtime loads all services). */
const KEY = Symbol.for('switchyard.metrics.registry');

export function metricsRegistry(): Registry {
  const slot = globalThis as Record<symbol, Registry | undefined>;
  let registry = slot[KEY];
  if (!registry) {
    registry = new Registry();
    // Process and Node.js runtime: CPU, memory, heap, handles, GC, event loop lag/utilisation.
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    slot[KEY] = registry;
  }
  return registry;
}

/** Latency buckets (seconds) from 1 ms to 30 s: HTTP handlers, Kafka handlers, store calls, webhook calls. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function counter<L extends string>(name: string, help: string, labelNames: readonly L[], collect?: (this: Counter<L>) => void | Promise<void>): Counter<L> {
  const registry = metricsRegistry();
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter<L>({ name, help, labelNames: [...labelNames], registers: [registry], ...(collect ? { collect } : {}) });
}

export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect?: (this: Gauge<L>) => void | Promise<void>): Gauge<L> {
  const registry = metricsRegistry();
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Gauge<L>;
  return new Gauge<L>({ name, help, labelNames: [...labelNames], registers: [registry], ...(collect ? { collect } : {}) });
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[] = LATENCY_BUCKETS): Histogram<L> {
  const registry = metricsRegistry();
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Histogram<L>;
  return new Histogram<L>({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: [registry] });
}
