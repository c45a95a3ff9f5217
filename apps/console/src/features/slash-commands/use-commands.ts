import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Command, CommandDraft } from './command-rules';
import { keys } from '../../api/query-keys';

/** The team's custom slash commands (`GET /api/v4/commands?team_id=&custom_only=true`). */
export function useCommands(teamId: string | undefined) {
  return useQuery({
    queryKey: keys.commands(teamId),
    queryFn: () => api.get<Command[]>('/commands', { query: { team_id: teamId, custom_only: true } }),
    enabled: !!teamId,
  });
}

/** Create, edit, delete and regenerate the token of a team's commands; each refreshes the list. */
export function useCommandActions(teamId: string | undefined) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.commands(teamId) });
  const create = useMutation({ mutationFn: (draft: CommandDraft) => api.post<Command>('/commands', { ...draft, team_id: teamId }), onSuccess: refresh });
  const update = useMutation({
    mutationFn: (input: { command: Command; changes: CommandDraft }) => api.put<Command>(`/commands/${input.command.id}`, { ...input.command, ...input.changes, id: input.command.id }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (commandId: string) => api.delete<unknown>(`/commands/${commandId}`), onSuccess: refresh });
  const regenToken = useMutation({ mutationFn: (commandId: string) => api.put<{ token: string }>(`/commands/${commandId}/regen_token`), onSuccess: refresh });
  return { create, update, remove, regenToken };
}
