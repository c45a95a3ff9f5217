import { useQuery, type QueryClient } from '@tanstack/react-query';
import { dialogArrived, noTriggers, triggerReceived, type TriggerState } from './dialog-triggers';
import type { OpenDialog } from './dialog-types';
import { keys } from '../../api/query-keys';

/** Shows a dialog (a newer one replaces it). */
export function showDialog(client: QueryClient, dialog: OpenDialog): void {
  client.setQueryData<OpenDialog | null>(keys.openDialog, dialog);
}

export function closeDialog(client: QueryClient): void {
  client.setQueryData<OpenDialog | null>(keys.openDialog, null);
}

function step(client: QueryClient, change: (state: TriggerState) => { state: TriggerState; show?: OpenDialog }): void {
  const { state, show } = change(client.getQueryData<TriggerState>(keys.dialogTriggers) ?? noTriggers);
  client.setQueryData<TriggerState>(keys.dialogTriggers, state);
  if (show) showDialog(client, show);
}

/** The `open_dialog` WebSocket event: shown if this page triggered it (see dialog-triggers.ts). */
export function onDialogEvent(client: QueryClient, dialog: OpenDialog): void {
  step(client, (state) => dialogArrived(state, dialog));
}

/** A trigger id this page got back from a button press or a slash command. */
export function onOwnTrigger(client: QueryClient, triggerId: string | undefined): void {
  if (triggerId) step(client, (state) => triggerReceived(state, triggerId));
}

/** The dialog on screen, if any (it lives only in this page). */
export function useOpenDialog(): OpenDialog | null {
  return useQuery<OpenDialog | null>({ queryKey: keys.openDialog, queryFn: () => null, staleTime: Infinity, gcTime: Infinity }).data ?? null;
}
