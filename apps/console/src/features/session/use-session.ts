import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import type { User } from '../../api/types';
import { keys } from '../../api/query-keys';

/** The signed-in user, or null when there is no session (401). */
export function useMe() {
  return useQuery({
    queryKey: keys.me,
    queryFn: async (): Promise<User | null> => {
      try {
        return await api.get<User>('/users/me');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

const isMe = (key: readonly unknown[]) => key.length === keys.me.length && key.every((part, i) => part === keys.me[i]);

/** Sign-in and sign-out: the server sets and clears the MMAUTHTOKEN session cookie and the MMCSRF cookie. */
export function useSessionActions() {
  const client = useQueryClient();
  /** A new identity: the user query changes in place (its observers stay), everything read as someone else is dropped. */
  const become = (user: User | null) => {
    client.removeQueries({ predicate: (query) => !isMe(query.queryKey) });
    client.setQueryData(keys.me, user);
  };
  const signIn = useMutation({
    mutationFn: (input: { loginId: string; password: string }) => api.post<User>('/users/login', { login_id: input.loginId, password: input.password }),
    onSuccess: (user) => become(user),
  });
  const signOut = useMutation({
    mutationFn: () => api.post<unknown>('/users/logout'),
    onSettled: () => become(null),
  });
  return { signIn, signOut };
}
