import type { Delivery } from '../entities';

/** What identifies a new delivery and what it sends; everything else starts as a fresh, due, unclaimed attempt. */
export type DeliveryRequest = Pick<Delivery, 'id' | 'hookId' | 'postId' | 'channelId' | 'threadRootId' | 'url' | 'contentType' | 'body'> & Partial<Pick<Delivery, 'eventType'>>;

/** A delivery as it is first stored: pending, no attempts yet, due at once (posts, bot hooks and event types alike). */
export function pendingDelivery(request: DeliveryRequest, now: number): Delivery {
  return {
    ...request,
    status: 'pending',
    attempts: 0,
    tries: 0,
    lastStatusCode: 0,
    lastError: '',
    lastLatencyMs: 0,
    createAt: now,
    updateAt: now,
    nextAttemptAt: now,
    claimedBy: '',
    claimUntil: 0,
  };
}
