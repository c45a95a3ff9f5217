import { useCallback, useReducer } from 'react';
import { ApiError } from '../../api/client';
import { anyUploading, readyFileIds, roomLeft, uploadsReducer } from './uploads-state';
import { uploadFile } from './upload-file';

let sequence = 0;
const newClientId = () => `console-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

/** Files for the next post in a channel: each uploads as soon as it is added; failures stay listed with the reason. */
export function useUploads(channelId: string) {
  const [uploads, dispatch] = useReducer(uploadsReducer, []);
  const add = useCallback(
    (files: readonly File[], room: number) => {
      files.forEach((file, i) => {
        const clientId = newClientId();
        dispatch({ type: 'started', clientId, name: file.name, size: file.size });
        if (i >= room) {
          dispatch({ type: 'failed', clientId, error: new Error(`A message can carry at most 10 files; ${file.name} was not added.`) });
          return;
        }
        uploadFile(channelId, file, clientId).then(
          (info) => dispatch({ type: 'succeeded', clientId, info }),
          (error: unknown) => dispatch({ type: 'failed', clientId, error: error instanceof ApiError || error instanceof Error ? error : new Error(String(error)) }),
        );
      });
    },
    [channelId],
  );
  return {
    uploads,
    add: (files: readonly File[]) => add(files, roomLeft(uploads)),
    remove: (clientId: string) => dispatch({ type: 'removed', clientId }),
    clear: () => dispatch({ type: 'cleared' }),
    fileIds: readyFileIds(uploads),
    uploading: anyUploading(uploads),
  };
}
