import type { StoredPost } from '../entities';

/** The reference's Post.IsUrgent: its `metadata.priority.priority` is `urgent` (only root posts may carry a priority). */
export function isUrgent(post: Pick<StoredPost, 'metadata'>): boolean {
  const priority = post.metadata?.priority;
  return typeof priority === 'object' && priority !== null && (priority as { priority?: unknown }).priority === 'urgent';
}
