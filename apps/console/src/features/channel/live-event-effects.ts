import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../../api/query-keys';
import type { Post } from '../../api/types';
import { parseOpenDialog } from '../dialogs/dialog-types';
import { applyStatusChange } from '../statuses/use-statuses';
import { onDialogEvent } from '../dialogs/open-dialog-store';
import { addEphemeral } from './use-ephemeral';

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

/** After a (re)connect: anything missed while not connected is fetched again. */
export function onLiveConnected(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.channels });
}

/**
 * What one WebSocket message (Mattermost protocol, as text) changes in the query cache: post and reaction events
 * refresh the channel they belong to (and its pinned list: pinning is a `post_edited`); `status_change` updates the
 * user's status wherever it is shown; `ephemeral_message` adds the "only visible to you" answer; `open_dialog` shows
 * an integration's dialog (when this page triggered it). Anything unreadable or unknown changes nothing.
 */
export function applyLiveEvent(client: QueryClient, text: string): void {
  let parsed: WsMessage;
  try {
    parsed = JSON.parse(text) as WsMessage;
  } catch {
    return;
  }
  if (parsed === null || typeof parsed !== 'object') return;
  const post = parsePost(parsed.data?.post);
  const channelId = post?.channel_id ?? parsed.broadcast?.channel_id;
  switch (parsed.event) {
    case 'posted':
    case 'post_edited':
    case 'post_deleted':
      if (channelId) {
        void client.invalidateQueries({ queryKey: keys.channelPosts(channelId) });
        void client.invalidateQueries({ queryKey: keys.pinned(channelId) });
      }
      break;
    case 'status_change':
      if (typeof parsed.data?.user_id === 'string' && typeof parsed.data.status === 'string') applyStatusChange(client, parsed.data.user_id, parsed.data.status);
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
}
