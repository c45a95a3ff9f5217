import { Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel } from '../access';
import type { Actor } from '../actor';
import type { Reaction } from '../entities';
import type { Deps } from '../ports';
import { loadPostFor } from '../posts/load-post';

/** `GET /posts/{id}/reactions`: needs read access to the channel; oldest first. */
export async function listReactions(deps: Deps, actor: Actor, postId: string): Promise<Reaction[]> {
  const post = await loadPostFor(deps, actor, postId, Permissions.readChannel);
  await accessTo(deps, actor, await loadChannel(deps, post.channel_id)).requireRead();
  return deps.reactions.listByPost(postId);
}
