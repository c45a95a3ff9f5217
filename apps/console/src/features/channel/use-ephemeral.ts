import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Post } from '../../api/types';
import { keys } from '../../api/query-keys';

/** Keeps an "only visible to you" post (from the WebSocket) for its channel, for this page's life only. */
export function addEphemeral(client: QueryClient, post: Post): void {
  client.setQueryData<Post[]>(keys.ephemeral(post.channel_id), (old = []) => [...old.filter((p) => p.id !== post.id), post]);
}

/** The ephemeral posts received for a channel (never fetched: they exist only in this page). */
export function useEphemeralPosts(channelId: string) {
  return useQuery<Post[]>({ queryKey: keys.ephemeral(channelId), queryFn: () => [], staleTime: Infinity, gcTime: Infinity }).data ?? [];
}
