import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { applyLiveEvent, onLiveConnected } from './live-event-effects';
import { useLiveSocket, type LiveMode } from './use-live-socket';

export type { LiveMode } from './use-live-socket';

const LiveContext = createContext<LiveMode>('polling');

export function useLiveMode(): LiveMode {
  return useContext(LiveContext);
}

/**
 * The page's WebSocket (use-live-socket.ts) feeding the query cache (live-event-effects.ts). While it is not open,
 * channel queries poll instead (they read the mode with useLiveMode).
 */
export function LiveEvents({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const handlers = useMemo(() => ({ onOpen: () => onLiveConnected(client), onMessage: (text: string) => applyLiveEvent(client, text) }), [client]);
  const mode = useLiveSocket(handlers);
  return <LiveContext.Provider value={mode}>{children}</LiveContext.Provider>;
}
