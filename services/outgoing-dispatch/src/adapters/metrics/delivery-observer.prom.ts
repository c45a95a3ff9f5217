import { deliveryMetrics } from '@switchyard/metrics';
import type { DeadReason, DeliveryObserver, DeliveryRepository } from '../../domain/ports';

/** The delivery observer on the process's Prometheus registry; pending deliveries are counted at scrape time. */
export function prometheusDeliveryObserver(deliveries: Pick<DeliveryRepository, 'countWaiting'>): DeliveryObserver {
  deliveryMetrics.pendingFrom(() => deliveries.countWaiting());
  return {
    attempted: (outcome, status, latencyMs) => deliveryMetrics.attempt(outcome, status, latencyMs / 1000),
    dead: (reason: DeadReason) => deliveryMetrics.dead(reason),
    hookDisabled: () => deliveryMetrics.hookDisabled(),
    rateLimited: () => deliveryMetrics.rateLimited(),
  };
}
