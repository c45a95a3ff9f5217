import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SubmissionValue } from './dialog-rules';
import type { DialogAnswer, DialogOption } from './dialog-types';

export interface DialogSubmission {
  readonly url: string;
  readonly callback_id: string;
  readonly state: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly submission: Readonly<Record<string, SubmissionValue>>;
  readonly cancelled: boolean;
  /** 11.10: the files of the dialog's `file` elements. */
  readonly file_ids?: readonly string[];
  /** `refresh` (11.1): a field with `refresh` changed; the request goes to the dialog's `source_url`. */
  readonly type?: 'refresh';
}

/** `POST /api/v4/actions/dialogs/submit`: the integration's `errors`/`error` come back in the answer. */
export function useDialogSubmit() {
  return useMutation({ mutationFn: (body: DialogSubmission) => api.post<DialogAnswer>('/actions/dialogs/submit', body) });
}

/** `POST /api/v4/files` (multipart) to the channel: the new files' ids, in order. */
export function uploadToChannel(channelId: string, files: readonly File[]): Promise<string[]> {
  const form = new FormData();
  form.append('channel_id', channelId);
  for (const file of files) form.append('files', file, file.name);
  return api.post<{ file_infos: { id: string }[] }>('/files', form).then((answer) => answer.file_infos.map((f) => f.id));
}

/** `POST /api/v4/actions/dialogs/lookup` (11.0): a dynamic select's options for what the user typed. */
export function lookupOptions(body: Omit<DialogSubmission, 'cancelled' | 'type'>): Promise<DialogOption[]> {
  return api.post<{ items?: DialogOption[] | null }>('/actions/dialogs/lookup', body).then((answer) => answer.items ?? []);
}
