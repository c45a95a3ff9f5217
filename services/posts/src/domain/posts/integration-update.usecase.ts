import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { checkMessage, checkProps, hashtagsOf, keepIntegrationProps } from '../rules/post-rules';
import { updatedEvent } from './post-events';

/**
 * An integration's `update` of a post (interactive action answer, internal API): `props` replaces the
 * map except the integration-owned keys, which keep their stored values; attachments are normalised.
 */
export async function integrationUpdatePost(deps: Deps, postId: string, update: { message?: string; props?: Record<string, unknown> | null }): Promise<StoredPost> {
  const post = await deps.posts.findById(postId);
  if (!post || post.delete_at !== 0) throw Errors.postNotFound();
  const now = deps.clock.now();
  const changes: { message?: string; hashtags?: string; props?: Record<string, unknown>; update_at: number; edit_at?: number } = { update_at: now };
  if (update.message !== undefined && update.message !== post.message) {
    checkMessage(update.message);
    changes.message = update.message;
    changes.hashtags = hashtagsOf(update.message);
    changes.edit_at = now;
  }
  if (update.props !== undefined && update.props !== null) {
    const props = keepIntegrationProps(post.props, normaliseAttachments(update.props));
    checkProps(props);
    changes.props = props;
  }
  const updated = await deps.posts.update(post.id, changes, updatedEvent(post.id, now, 'action'));
  if (!updated) throw Errors.postNotFound();
  void deps.relay(post);
  return updated;
}
