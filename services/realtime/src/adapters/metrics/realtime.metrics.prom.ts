import { realtimeMetrics, type RealtimeGaugeSource } from '@switchyard/metrics';
import type { RealtimeMetrics } from '../../domain/ports';

/** The realtime metrics on the process's Prometheus registry (shared/metrics names and bounded labels). */
export function prometheusRealtimeMetrics(): RealtimeMetrics {
  return {
    sent: (event, receivers) => realtimeMetrics.sent(event, receivers),
    dropped: (event) => realtimeMetrics.dropped(event),
    disconnected: (reason) => realtimeMetrics.disconnected(reason),
    fanOut: (seconds) => realtimeMetrics.fanOut(seconds),
  };
}

/** The gauges (connections, send buffer, queued frames), read from the service at scrape time. */
export function exposeRealtimeGauges(source: RealtimeGaugeSource): void {
  realtimeMetrics.gaugesFrom(source);
}
