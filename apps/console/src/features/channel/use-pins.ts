import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/query-keys';
import type { Post, PostList } from '../../api/types';

/** The pinned list's posts in the server's order (oldest first), deleted ones left out. */
export function pinnedInOrder(list: PostList): Post[] {
  return list.order.map((id) => list.posts[id]).filter((p): p is Post => !!p && p.delete_at === 0);
}

/** The channel's pinned posts, oldest first as the server orders them (GET /channels/{id}/pinned). */
export function usePinnedPosts(channelId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.pinned(channelId),
    queryFn: () => api.get<PostList>(`/channels/${channelId}/pinned`),
    enabled,
    select: pinnedInOrder,
  });
}

/** POST /posts/{id}/pin or /unpin (no body; any member of the channel may). */
export function setPinned(postId: string, pin: boolean): Promise<{ status: string }> {
  return api.post<{ status: string }>(`/posts/${encodeURIComponent(postId)}/${pin ? 'pin' : 'unpin'}`);
}

/** Pin or unpin a post; the channel's posts and its pinned list are fetched again. */
export function usePinAction(channelId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { postId: string; pin: boolean }) => setPinned(input.postId, input.pin),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: keys.channelPosts(channelId) }), client.invalidateQueries({ queryKey: keys.pinned(channelId) })]),
  });
}
