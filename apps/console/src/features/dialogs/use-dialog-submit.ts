import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { DialogAnswer } from './dialog-types';

export interface DialogSubmission {
  readonly url: string;
  readonly callback_id: string;
  readonly state: string;
  readonly channel_id: string;
  readonly team_id: string;
  readonly submission: Readonly<Record<string, string | number | boolean>>;
  readonly cancelled: boolean;
}

/** `POST /api/v4/actions/dialogs/submit`: the integration's `errors`/`error` come back in the answer. */
export function useDialogSubmit() {
  return useMutation({ mutationFn: (body: DialogSubmission) => api.post<DialogAnswer>('/actions/dialogs/submit', body) });
}
