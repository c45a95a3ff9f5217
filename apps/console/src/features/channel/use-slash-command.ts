import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { onOwnTrigger } from '../dialogs/open-dialog-store';

/** What `POST /api/v4/commands/execute` answers (the fields the console uses). */
export interface CommandResponse {
  readonly response_type?: string;
  readonly text?: string;
  readonly goto_location?: string;
  readonly trigger_id?: string;
}

/** A message the reference's client sends as a command instead of a post: it starts with "/". */
export const isSlashCommand = (message: string): boolean => message.startsWith('/') && !message.startsWith('//') && message.trim().length > 1;

/**
 * Runs a slash command in the channel, as the reference's web app does. An `ephemeral` answer arrives on
 * the WebSocket (`ephemeral_message`), an `in_channel` one as a post; a dialog the integration opens
 * arrives as `open_dialog`. `goto_location` is followed.
 */
export function useSlashCommand(channelId: string, teamId: string, navigate: (path: string) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { command: string; rootId?: string }) =>
      api.post<CommandResponse>('/commands/execute', { channel_id: channelId, team_id: teamId, command: input.command, ...(input.rootId ? { root_id: input.rootId, parent_id: input.rootId } : {}) }),
    onSuccess: (answer) => {
      onOwnTrigger(client, answer.trigger_id);
      const goto = answer.goto_location;
      if (!goto) return;
      if (goto.startsWith('/')) navigate(goto);
      else if (/^https?:\/\//i.test(goto)) window.open(goto, '_blank', 'noopener,noreferrer');
    },
  });
}
