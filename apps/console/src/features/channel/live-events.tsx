import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Post } from '../../api/types';
import { parseOpenDialog } from '../dialogs/dialog-types';
import { onDialogEvent } from '../dialogs/open-dialog-store';
import { addEphemeral } from './use-ephemeral';
import { keys } from '../../api/query-keys';

/** `live`: the WebSocket is open and pushes changes; `polling`: it is not (yet), so channel data is polled. */
export type LiveMode = 'connecting' | 'live' | 'polling';

const LiveContext = createContext<LiveMode>('polling');

export function useLiveMode(): LiveMode {
  return useContext(LiveContext);
}

interface WsMessage {
  readonly event?: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly broadcast?: { readonly channel_id?: string };
}

function parsePost(raw: unknown): Post | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as Post;
  } catch {
    return undefined;
  }
}

/**
 * One WebSocket to GET /api/v4/websocket (Mattermost protocol; the session cookie authenticates the upgrade).
 * Post and reaction events refresh the channel they belong to; `ephemeral_message` adds the "only visible to you"
 * answer; `open_dialog` shows an integration's dialog (when this page triggered it). While it is not open, queries poll instead, and it reconnects with a growing pause.
 */
export function LiveEvents({ children }: { children: ReactNode }) {
  const client = useQueryClient();
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
        // Anything missed while not connected.
        void client.invalidateQueries({ queryKey: keys.channels });
      };
      socket.onmessage = (message: MessageEvent) => {
        let parsed: WsMessage;
        try {
          parsed = JSON.parse(String(message.data)) as WsMessage;
        } catch {
          return;
        }
        const post = parsePost(parsed.data?.post);
        const channelId = post?.channel_id ?? parsed.broadcast?.channel_id;
        switch (parsed.event) {
          case 'posted':
          case 'post_edited':
          case 'post_deleted':
            if (channelId) void client.invalidateQueries({ queryKey: keys.channelPosts(channelId) });
            break;
          case 'reaction_added':
          case 'reaction_removed':
            if (channelId) void client.invalidateQueries({ queryKey: keys.channelPosts(channelId) });
            void client.invalidateQueries({ queryKey: keys.reactions });
            break;
          case 'ephemeral_message':
            if (post) addEphemeral(client, post);
            break;
          case 'open_dialog': {
            const dialog = parseOpenDialog(parsed.data?.dialog);
            if (dialog) onDialogEvent(client, dialog);
            break;
          }
          default:
            break;
        }
      };
      socket.onclose = () => {
        if (stopped) return;
        setMode('polling');
        failures += 1;
        retry = setTimeout(connect, Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5)));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.close();
    };
  }, [client]);
  return <LiveContext.Provider value={mode}>{children}</LiveContext.Provider>;
}
