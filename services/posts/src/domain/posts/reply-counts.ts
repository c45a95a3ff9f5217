import type { StoredPost } from '../entities';
import type { Deps } from '../ports';

/**
 * `reply_count` as the reference shows it on every post: a root carries its count of live replies and a
 * reply carries its root's count (a root missing or deleted counts 0). Roots are read once per batch.
 * Returns copies; the stored replies keep whatever count they had when written.
 */
export async function withReplyCounts(deps: Pick<Deps, 'posts'>, posts: readonly StoredPost[]): Promise<StoredPost[]> {
  const known = new Map(posts.filter((p) => p.root_id === '').map((p) => [p.id, p]));
  const missing = [...new Set(posts.filter((p) => p.root_id !== '' && !known.has(p.root_id)).map((p) => p.root_id))];
  if (missing.length > 0) for (const root of await deps.posts.findByIds(missing)) known.set(root.id, root);
  return posts.map((post) => {
    if (post.root_id === '') return post;
    const root = known.get(post.root_id);
    const count = root && root.delete_at === 0 ? root.reply_count : 0;
    return post.reply_count === count ? post : { ...post, reply_count: count };
  });
}

export async function withReplyCount(deps: Pick<Deps, 'posts'>, post: StoredPost): Promise<StoredPost> {
  return (await withReplyCounts(deps, [post]))[0] as StoredPost;
}
