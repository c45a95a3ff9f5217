import { hasPermission, hasTeamPermission, isSystemAdmin } from '@switchyard/permissions';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useMe } from './use-session';
import { keys } from '../../api/query-keys';

interface TeamMember {
  readonly team_id: string;
  readonly roles: string;
}

/** The signed-in user's team memberships (for team-scoped permissions such as managing webhooks). */
export function useMyTeamMembers() {
  const me = useMe().data;
  return useQuery({
    queryKey: keys.myTeamMembers,
    queryFn: () => api.get<TeamMember[]>('/users/me/teams/members'),
    enabled: !!me,
    staleTime: 30_000,
  });
}

/**
 * What the signed-in user may do, by the same role tables the server checks (@switchyard/permissions), so
 * what they may not do is not offered. The server still decides: a refusal is shown in words.
 */
export function usePermissions() {
  const me = useMe().data;
  const members = useMyTeamMembers().data ?? [];
  const roles = me?.roles ?? '';
  const can = (permission: string) => hasPermission(roles, permission);
  const canInTeam = (teamId: string, permission: string) => hasTeamPermission(roles, members.find((m) => m.team_id === teamId)?.roles ?? '', permission);
  const canInAnyTeam = (permission: string) => can(permission) || members.some((m) => hasPermission(m.roles, permission));
  return { isAdmin: isSystemAdmin(roles), can, canInTeam, canInAnyTeam };
}
