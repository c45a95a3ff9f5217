import { isValidId } from '@switchyard/ids';
import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * The reference's checks on a reply's `root_id` (mattermost-wire-2.md §4.2), in its order: the root must
 * exist and be live (a malformed id ends here too), be in the reply's channel, and not be a reply itself.
 */
export async function checkReplyRoot(deps: Pick<Deps, 'posts'>, channelId: string, rootId: string): Promise<void> {
  if (rootId === '') return;
  checkReplyRootOf(isValidId(rootId) ? await deps.posts.findById(rootId) : undefined, channelId);
}

/** The same checks on a root already read (undefined: missing, or its id malformed). */
export function checkReplyRootOf(root: StoredPost | undefined, channelId: string): void {
  if (!root || root.delete_at !== 0) throw Errors.postRootId();
  if (root.channel_id !== channelId) throw Errors.postChannelRootId();
  if (root.root_id !== '') throw Errors.postRootId();
}
