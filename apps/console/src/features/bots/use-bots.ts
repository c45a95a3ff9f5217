import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Bot } from '../../api/types';
import { keys } from '../../api/query-keys';

/** Every bot the user may see, disabled ones included (they can be enabled again). */
export function useBots(enabled = true) {
  return useQuery({
    queryKey: keys.bots,
    queryFn: () => api.get<Bot[]>('/bots', { query: { include_deleted: true, per_page: 200 } }),
    enabled,
  });
}
