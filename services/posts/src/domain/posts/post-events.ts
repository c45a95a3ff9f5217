import type { PostSource } from '@switchyard/contracts';
import type { PendingEvent } from '../entities';

/** Deterministic envelope ids: a redelivered or re-swept event keeps its id, so consumers dedupe it. */
export const createdEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:created`, type: 'post.created', time, source });
export const updatedEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:updated:${time}`, type: 'post.updated', time, source });
export const deletedEvent = (postId: string, time: number, source: PostSource): PendingEvent => ({ id: `${postId}:deleted`, type: 'post.deleted', time, source });
/** One `file.attached` per file the write attached (README "Event types" `file_uploaded`), after the post's own event. */
export const fileAttachedEvents = (postId: string, fileIds: readonly string[], time: number, source: PostSource): PendingEvent[] =>
  fileIds.map((fileId) => ({ id: `${postId}:file:${fileId}`, type: 'file.attached', time, source, file_id: fileId }));
