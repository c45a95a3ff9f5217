import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { loadPostFor } from './load-post';

/** `GET /posts/{id}`: needs read access to its channel; deleted posts only with include_deleted (manage_system). */
export async function getPost(deps: Deps, actor: Actor, postId: string, includeDeleted: boolean): Promise<StoredPost> {
  const post = await loadPostFor(deps, actor, postId, Permissions.readChannel, includeDeleted);
  await accessTo(deps, actor, await loadChannel(deps, post.channel_id)).requireRead();
  return post;
}
