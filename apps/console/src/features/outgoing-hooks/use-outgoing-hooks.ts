import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Delivery, OutgoingHook } from '../../api/types';
import { keys } from '../../api/query-keys';

/** The team's outgoing webhooks the user may manage. */
export function useOutgoingHooks(teamId: string | undefined) {
  return useQuery({
    queryKey: keys.outgoingHooks.ofTeam(teamId),
    queryFn: () => api.get<OutgoingHook[]>('/hooks/outgoing', { query: { team_id: teamId, per_page: 200 } }),
    enabled: !!teamId,
  });
}

/** A hook's delivery log, newest first, refreshed every two seconds while it is shown. */
export function useDeliveries(hookId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.outgoingHooks.deliveries(hookId),
    queryFn: () => api.get<Delivery[]>(`/hooks/outgoing/${hookId}/deliveries`, { query: { per_page: 100 } }),
    enabled,
    refetchInterval: enabled ? 2_000 : false,
  });
}

export type OutgoingHookInput = Pick<OutgoingHook, 'display_name' | 'description' | 'channel_id' | 'trigger_words' | 'trigger_when' | 'callback_urls' | 'content_type' | 'username' | 'icon_url' | 'event_types' | 'bot_user_id' | 'signing_algorithm'> & { team_id: string };

export function useOutgoingHookActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.outgoingHooks.all });
  const create = useMutation({ mutationFn: (input: OutgoingHookInput) => api.post<OutgoingHook>('/hooks/outgoing', input), onSuccess: refresh });
  const update = useMutation({
    mutationFn: (input: { hook: OutgoingHook; changes: OutgoingHookInput }) => api.put<OutgoingHook>(`/hooks/outgoing/${input.hook.id}`, { ...input.hook, ...input.changes, id: input.hook.id }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (hookId: string) => api.delete<unknown>(`/hooks/outgoing/${hookId}`), onSuccess: refresh });
  const regenToken = useMutation({ mutationFn: (hookId: string) => api.post<OutgoingHook>(`/hooks/outgoing/${hookId}/regen_token`), onSuccess: refresh });
  const regenSecret = useMutation({ mutationFn: (hookId: string) => api.post<OutgoingHook>(`/hooks/outgoing/${hookId}/regen_signing_secret`), onSuccess: refresh });
  const enable = useMutation({ mutationFn: (hookId: string) => api.post<OutgoingHook>(`/hooks/outgoing/${hookId}/enable`), onSuccess: refresh });
  const redeliver = useMutation({
    mutationFn: (input: { hookId: string; deliveryId: string }) => api.post<Delivery>(`/hooks/outgoing/${input.hookId}/deliveries/${input.deliveryId}/redeliver`),
    onSuccess: (_d, input) => client.invalidateQueries({ queryKey: keys.outgoingHooks.deliveries(input.hookId) }),
  });
  const recoverFailed = useMutation({
    mutationFn: (input: { hookId: string; since: number }) => api.post<Delivery[]>(`/hooks/outgoing/${input.hookId}/deliveries/redeliver_failed`, undefined, { query: { since: input.since } }),
    onSuccess: (_d, input) => client.invalidateQueries({ queryKey: keys.outgoingHooks.deliveries(input.hookId) }),
  });
  return { create, update, remove, regenToken, regenSecret, enable, redeliver, recoverFailed };
}
