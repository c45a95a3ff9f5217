import { api } from '../../api/client';
import type { FileInfo } from '../../api/types';

interface UploadAnswer {
  readonly file_infos: readonly FileInfo[];
  readonly client_ids: readonly string[] | null;
}

/**
 * Uploads one file to a channel as the reference's web app does: POST /api/v4/files, multipart with `channel_id`
 * first, then `client_ids`, then `files` (the server streams the file after checking the channel). One file a request,
 * so that one refused file (too large, attachments off) does not take the others with it.
 */
export async function uploadFile(channelId: string, file: File, clientId: string, signal?: AbortSignal): Promise<FileInfo> {
  const form = new FormData();
  form.append('channel_id', channelId);
  form.append('client_ids', clientId);
  form.append('files', file, file.name);
  const answer = await api.post<UploadAnswer>('/files', form, signal ? { signal } : undefined);
  const info = answer.file_infos[0];
  if (!info) throw new Error(`The server stored nothing for ${file.name}.`);
  return info;
}
