import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { PostList, Reaction, User } from '../../api/types';
import { useLiveMode } from './live-events';
import { keys } from '../../api/query-keys';

const POLL_MS = 2_000;

/** The latest posts of a channel (replies included), pushed by the WebSocket when it is open, polled when not. */
export function useChannelPosts(channelId: string | undefined) {
  const mode = useLiveMode();
  return useQuery({
    queryKey: keys.channelPosts(channelId),
    queryFn: () => api.get<PostList>(`/channels/${channelId}/posts`, { query: { per_page: 60 } }),
    enabled: !!channelId,
    refetchInterval: mode === 'live' ? false : POLL_MS,
    placeholderData: keepPreviousData,
  });
}

/** Users by id (for names and the BOT label), one batch request per set of new ids. */
export function useUsers(ids: readonly string[]) {
  const unique = [...new Set(ids)].sort();
  const query = useQuery({
    queryKey: keys.usersByIds(unique.join(',')),
    queryFn: () => api.post<User[]>('/users/ids', unique),
    enabled: unique.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const byId = new Map<string, User>();
  for (const user of query.data ?? []) byId.set(user.id, user);
  return byId;
}

/** Reactions of the posts that have some. */
export function useReactions(postIds: readonly string[]) {
  const mode = useLiveMode();
  const results = useQueries({
    queries: postIds.map((id) => ({
      queryKey: keys.reactionsOf(id),
      queryFn: () => api.get<Reaction[]>(`/posts/${id}/reactions`),
      staleTime: mode === 'live' ? 60_000 : POLL_MS,
    })),
  });
  const byPost = new Map<string, Reaction[]>();
  postIds.forEach((id, i) => byPost.set(id, results[i]?.data ?? []));
  return byPost;
}
