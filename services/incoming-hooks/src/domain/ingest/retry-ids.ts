import { createHash } from 'node:crypto';
import { encodeBase32 } from '@switchyard/ids';

/**
 * The ids of what one keyed hook request makes (its posts, its files), the same on every try of it:
 * derived from the hook, the `Idempotency-Key` and when its first try reserved it (the key used again
 * after its 24-hour window is a new request). A retry after a 5xx (the key was released) thus names
 * the posts and files of the first try, so posts (idempotent by post id) never stores the post twice,
 * and the first try's files are taken again instead of a second copy being stored beside them.
 */
export function retryIds(hookId: string, idempotencyKey: string, since: number): (label: string) => string {
  return (label) => encodeBase32(createHash('sha256').update(`${hookId}\n${idempotencyKey}\n${since}\n${label}`).digest().subarray(0, 16));
}
