import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { IncomingHook } from '../../api/types';
import { keys } from '../../api/query-keys';

/** The team's incoming webhooks the user may manage. */
export function useIncomingHooks(teamId: string | undefined) {
  return useQuery({
    queryKey: keys.incomingHooks.ofTeam(teamId),
    queryFn: () => api.get<IncomingHook[]>('/hooks/incoming', { query: { team_id: teamId, per_page: 200 } }),
    enabled: !!teamId,
  });
}

export type IncomingHookInput = Pick<IncomingHook, 'channel_id' | 'display_name' | 'description' | 'username' | 'icon_url' | 'channel_locked' | 'reaction_notifications'>;

/** The address integrations post to: anyone who knows it can post, so it is shown only to those who manage the hook. */
export function hookUrl(hook: Pick<IncomingHook, 'id'>): string {
  return `${window.location.origin}/hooks/${hook.id}`;
}

export function useIncomingHookActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.incomingHooks.all });
  const create = useMutation({ mutationFn: (input: IncomingHookInput) => api.post<IncomingHook>('/hooks/incoming', input), onSuccess: refresh });
  const update = useMutation({
    mutationFn: (input: { hook: IncomingHook; changes: IncomingHookInput }) => api.put<IncomingHook>(`/hooks/incoming/${input.hook.id}`, { ...input.hook, ...input.changes }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (hookId: string) => api.delete<unknown>(`/hooks/incoming/${hookId}`), onSuccess: refresh });
  /** Posts through the hook's own address, exactly as an integration would. */
  const sendTest = useMutation({
    mutationFn: (hook: IncomingHook) =>
      api.post<string>(`/hooks/${hook.id}`, { text: `Test message from the Switchyard console for **${hook.display_name || 'this webhook'}**.` }, { absolute: true }),
  });
  return { create, update, remove, sendTest };
}
