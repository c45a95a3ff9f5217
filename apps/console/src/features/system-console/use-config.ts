import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SystemConfig } from '../../api/types';
import { keys } from '../../api/query-keys';

/** The system config; only readable with a system console permission (so only asked for then). */
export function useConfig(enabled: boolean) {
  return useQuery({ queryKey: keys.config, queryFn: () => api.get<SystemConfig>('/config'), enabled });
}

/** One change applied live through PUT /config/patch; the answer is the whole new config. */
export function useConfigActions() {
  const client = useQueryClient();
  const patch = useMutation({
    mutationFn: (change: Record<string, Record<string, unknown>>) => api.put<SystemConfig>('/config/patch', change),
    onSuccess: (config) => client.setQueryData(keys.config, config),
  });
  return { patch };
}
