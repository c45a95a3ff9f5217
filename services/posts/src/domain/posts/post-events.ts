import type { PostSource } from '@switchyard/contracts';
import type { PendingEvent } from '../entities';

/** Deterministic envelope ids: a redelivered or re-swept event keeps its id, so consumers dedupe it. */
export const createdEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:created`, type: 'post.created', time, source });
export const updatedEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:updated:${time}`, type: 'post.updated', time, source });
export const deletedEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:deleted`, type: 'post.deleted', time, source });
