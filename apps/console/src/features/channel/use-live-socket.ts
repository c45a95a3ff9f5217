import { useEffect, useState } from 'react';

/** `live`: the WebSocket is open and pushes changes; `polling`: it is not (yet), so channel data is polled. */
export type LiveMode = 'connecting' | 'live' | 'polling';

export interface LiveHandlers {
  onOpen(): void;
  onMessage(text: string): void;
}

/** The pause before the next attempt after `failures` failed ones: 2 s, 4 s, … up to 30 s. */
export function reconnectDelay(failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5));
}

/**
 * One WebSocket to GET /api/v4/websocket (the session cookie authenticates the upgrade), reconnecting with a
 * growing pause; answers whether it is open. `handlers` must be stable (the socket is made again when they change).
 */
export function useLiveSocket(handlers: LiveHandlers): LiveMode {
  const [mode, setMode] = useState<LiveMode>('connecting');
  useEffect(() => {
    let socket: WebSocket | undefined;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const connect = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/v4/websocket`;
      socket = new WebSocket(url);
      socket.onopen = () => {
        failures = 0;
        setMode('live');
        handlers.onOpen();
      };
      socket.onmessage = (message: MessageEvent) => handlers.onMessage(String(message.data));
      socket.onclose = () => {
        if (stopped) return;
        setMode('polling');
        failures += 1;
        retry = setTimeout(connect, reconnectDelay(failures));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.close();
    };
  }, [handlers]);
  return mode;
}
