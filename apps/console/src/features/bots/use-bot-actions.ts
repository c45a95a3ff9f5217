import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Bot, User, UserAccessToken } from '../../api/types';
import { keys } from '../../api/query-keys';

export interface NewBot {
  readonly username: string;
  readonly display_name: string;
  readonly description: string;
}

/** Creates the bot and its first token, as the reference's web app does on its creation screen. */
export async function createBotWithToken(input: NewBot): Promise<{ bot: Bot; token: UserAccessToken }> {
  const bot = await api.post<Bot>('/bots', input);
  const token = await api.post<UserAccessToken>(`/users/${bot.user_id}/tokens`, { description: 'Created with the bot' });
  return { bot, token };
}

/** Admins only: finds the user by username (a leading @ is dropped) and turns the account into a bot. */
export async function convertUserToBot(username: string): Promise<Bot> {
  const user = await api.get<User>(`/users/username/${encodeURIComponent(username.replace(/^@/, ''))}`);
  return api.post<Bot>(`/users/${user.id}/convert_to_bot`);
}

/** Writes on bots; each refreshes the bot list. */
export function useBotActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys.bots });
  const create = useMutation({ mutationFn: createBotWithToken, onSuccess: refresh });
  const disable = useMutation({ mutationFn: (botId: string) => api.post<Bot>(`/bots/${botId}/disable`), onSuccess: refresh });
  const enable = useMutation({ mutationFn: (botId: string) => api.post<Bot>(`/bots/${botId}/enable`), onSuccess: refresh });
  const newToken = useMutation({
    mutationFn: (input: { botId: string; description: string }) => api.post<UserAccessToken>(`/users/${input.botId}/tokens`, { description: input.description }),
  });
  /** Sets the bot's icon: an SVG file, sent as the multipart field `image` (the server stores it sanitised). */
  const setIcon = useMutation({
    mutationFn: (input: { botId: string; file: File }) => {
      const form = new FormData();
      form.append('image', input.file, input.file.name);
      return api.post<{ status: string }>(`/bots/${input.botId}/icon`, form);
    },
    onSuccess: refresh,
  });
  const removeIcon = useMutation({ mutationFn: (botId: string) => api.delete<{ status: string }>(`/bots/${botId}/icon`), onSuccess: refresh });
  const convertUser = useMutation({ mutationFn: convertUserToBot, onSuccess: refresh });
  return { create, disable, enable, newToken, convertUser, setIcon, removeIcon };
}
