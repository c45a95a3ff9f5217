import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Post } from '../../api/types';
import { onOwnTrigger } from '../dialogs/open-dialog-store';
import { keys } from '../../api/query-keys';

/** Writes in a channel; each refreshes the channel's posts (the WebSocket would too, but not everyone has it). */
export function usePostActions(channelId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.channelPosts(channelId) });
  const createPost = useMutation({
    mutationFn: (input: { message: string; rootId?: string; fileIds?: readonly string[] }) =>
      api.post<Post>('/posts', {
        channel_id: channelId,
        message: input.message,
        ...(input.rootId ? { root_id: input.rootId } : {}),
        ...(input.fileIds && input.fileIds.length > 0 ? { file_ids: input.fileIds } : {}),
      }),
    onSuccess: refresh,
  });
  const react = useMutation({
    mutationFn: (input: { userId: string; postId: string; emoji: string; remove: boolean }) =>
      input.remove
        ? api.delete<unknown>(`/users/${input.userId}/posts/${input.postId}/reactions/${encodeURIComponent(input.emoji)}`)
        : api.post<unknown>('/reactions', { user_id: input.userId, post_id: input.postId, emoji_name: input.emoji }),
    onSuccess: (_r, input) => client.invalidateQueries({ queryKey: keys.reactionsOf(input.postId) }),
  });
  /** Presses a button or picks a menu option: the integration's `update` changes the post, its `ephemeral_text` arrives on the WebSocket. */
  const doAction = useMutation({
    mutationFn: (input: { postId: string; actionId: string; selectedOption?: string }) =>
      api.post<{ status: string; trigger_id?: string; goto_location?: string }>(
        `/posts/${input.postId}/actions/${encodeURIComponent(input.actionId)}`,
        input.selectedOption !== undefined ? { selected_option: input.selectedOption } : {},
      ),
    onSuccess: (answer) => {
      onOwnTrigger(client, answer.trigger_id);
      return refresh();
    },
  });
  return { createPost, react, doAction };
}
