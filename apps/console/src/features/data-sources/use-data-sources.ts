import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { User } from '../../api/types';
import { useMyChannels } from '../teams/use-teams';
import type { DataSources } from './data-sources';
import { keys } from '../../api/query-keys';

/** Options of menus with `data_source`: users, and the channels of this team. Only fetched when a post has such a menu. */
export function useDataSources(teamId: string, needUsers: boolean): DataSources {
  const users = useQuery({ queryKey: keys.usersList, queryFn: () => api.get<User[]>('/users', { query: { per_page: 200 } }), enabled: needUsers, staleTime: 60_000 });
  const channels = useMyChannels(teamId);
  return {
    users: (users.data ?? []).map((u) => ({ text: `@${u.username}`, value: u.id })),
    channels: (channels.data ?? []).map((c) => ({ text: c.display_name || c.name, value: c.id })),
  };
}
