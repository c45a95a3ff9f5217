import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { withReplyCounts } from '../posts/reply-counts';
import { readableChannel } from './pin-post.usecase';

/** The most pinned posts one answer carries (bounded work per request). */
export const MAX_PINNED = 1000;

/** `GET /channels/{id}/pinned`: live pinned posts, replies included, oldest first (read_channel). */
export async function listPinned(deps: Deps, actor: Actor, channelId: string): Promise<StoredPost[]> {
  await readableChannel(deps, actor, channelId);
  const posts = await deps.posts.list({ channelId, includeDeleted: false, pinnedOnly: true, order: 'asc', skip: 0, limit: MAX_PINNED });
  return withReplyCounts(deps, posts);
}
