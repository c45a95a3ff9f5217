import { newId } from '@switchyard/ids';

/** A new request id: 26 characters of Mattermost's id alphabet over 128 random bits, exactly as `newId()` (pooled randomness). */
export function newRequestId(): string {
  return newId();
}
