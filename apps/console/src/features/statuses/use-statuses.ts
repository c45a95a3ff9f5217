import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/query-keys';

export type StatusValue = 'online' | 'away' | 'dnd' | 'offline' | 'ooo';

export interface UserStatus {
  readonly user_id: string;
  readonly status: StatusValue;
  readonly manual?: boolean;
  readonly last_activity_at?: number;
}

/** How often others' statuses are asked again: the server pushes `status_change` only to the user's own sockets. */
const REFRESH_MS = 60_000;

/** The statuses of some users (POST /users/status/ids), one request per set of ids, by user id. */
export function useStatuses(userIds: readonly string[]): ReadonlyMap<string, StatusValue> {
  const unique = [...new Set(userIds.filter((id) => id !== ''))].sort();
  const query = useQuery({
    queryKey: keys.statusesOf(unique.join(',')),
    queryFn: () => api.post<UserStatus[]>('/users/status/ids', unique),
    enabled: unique.length > 0,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });
  return new Map((query.data ?? []).map((s) => [s.user_id, s.status]));
}

/** The `status_change` WebSocket event: every cached status list with that user gets the new value at once. */
export function applyStatusChange(client: QueryClient, userId: string, status: string): void {
  client.setQueriesData<UserStatus[]>({ queryKey: keys.statuses }, (old) => (old ? old.map((s) => (s.user_id === userId ? { ...s, status: status as StatusValue } : s)) : old));
}
