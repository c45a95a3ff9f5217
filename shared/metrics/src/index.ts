export { metricsRegistry, counter, gauge, histogram, LATENCY_BUCKETS } from './registry';
export { startMetricsServer, parseListenAddress, type MetricsServer } from './metrics-server';
export { observeHttpRequest } from './http-metrics';
export { kafkaMetrics } from './kafka-metrics';
export { deliveryMetrics, statusClass, type AttemptOutcome } from './delivery-metrics';
export { intakeMetrics } from './intake-metrics';
export { observeStoreOperation } from './store-metrics';
export { realtimeMetrics, type RealtimeDisconnect, type RealtimeGaugeSource } from './realtime-metrics';
export { fileMetrics } from './file-metrics';
