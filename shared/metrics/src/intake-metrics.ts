import { counter } from './registry';

const intake = () =>
  counter('switchyard_incoming_webhooks_total', 'POST /hooks/{key} requests, by result (accepted, refused) and reason (ok, replayed, or the refusal\'s error class)', ['result', 'reason']);

export const intakeMetrics = {
  accepted(replayed = false): void {
    intake().inc({ result: 'accepted', reason: replayed ? 'replayed' : 'ok' });
  },
  /** `reason` is a fixed word (not_found, disabled, invalid_payload, rate_limited, too_large, forbidden, unavailable, error). */
  refused(reason: string): void {
    intake().inc({ result: 'refused', reason });
  },
};
