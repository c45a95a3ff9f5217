import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Channel, Team } from '../../api/types';
import { keys } from '../../api/query-keys';

/** The teams the signed-in user belongs to. */
export function useMyTeams() {
  return useQuery({ queryKey: keys.myTeams, queryFn: () => api.get<Team[]>('/users/me/teams'), staleTime: 30_000 });
}

/** The channels of a team the signed-in user is a member of. */
export function useMyChannels(teamId: string | undefined) {
  return useQuery({
    queryKey: keys.myChannels(teamId),
    queryFn: () => api.get<Channel[]>(`/users/me/teams/${teamId}/channels`),
    enabled: !!teamId,
    staleTime: 15_000,
  });
}
