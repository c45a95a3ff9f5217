import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { OpenDialog } from './dialog-types';

const key = ['open-dialog'] as const;

/** Shows a dialog an integration opened (the `open_dialog` WebSocket event); a newer one replaces it. */
export function showDialog(client: QueryClient, dialog: OpenDialog): void {
  client.setQueryData<OpenDialog | null>(key, dialog);
}

export function closeDialog(client: QueryClient): void {
  client.setQueryData<OpenDialog | null>(key, null);
}

/** The dialog on screen, if any (it lives only in this page). */
export function useOpenDialog(): OpenDialog | null {
  return useQuery<OpenDialog | null>({ queryKey: key, queryFn: () => null, staleTime: Infinity, gcTime: Infinity }).data ?? null;
}
