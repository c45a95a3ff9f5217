import { createHash } from 'node:crypto';

/** A response_url stays usable this long after the execution (the reference: 30 minutes). */
export const COMMAND_WEBHOOK_TTL_MS = 30 * 60_000;
/** And this many times (the reference: 5, counted atomically). */
export const COMMAND_WEBHOOK_MAX_USES = 5;

/** What is stored for a response_url id: its SHA-256 (the id itself is the integration's credential). */
export function hashWebhookId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
