import type { FileInfo } from '../../api/types';
import { MAX_FILES_PER_POST } from './file-rules';

/** One file picked or dropped for the next post. */
export interface PendingUpload {
  readonly clientId: string;
  readonly name: string;
  readonly size: number;
  readonly state: 'uploading' | 'done' | 'failed';
  readonly info?: FileInfo;
  readonly error?: unknown;
}

export type UploadsAction =
  | { readonly type: 'started'; readonly clientId: string; readonly name: string; readonly size: number }
  | { readonly type: 'succeeded'; readonly clientId: string; readonly info: FileInfo }
  | { readonly type: 'failed'; readonly clientId: string; readonly error: unknown }
  | { readonly type: 'removed'; readonly clientId: string }
  | { readonly type: 'cleared' };

/** The composer's pending files; answers for files already removed are ignored. */
export function uploadsReducer(state: readonly PendingUpload[], action: UploadsAction): readonly PendingUpload[] {
  switch (action.type) {
    case 'started':
      return [...state, { clientId: action.clientId, name: action.name, size: action.size, state: 'uploading' }];
    case 'succeeded':
      return state.map((u) => (u.clientId === action.clientId ? { ...u, state: 'done', info: action.info } : u));
    case 'failed':
      return state.map((u) => (u.clientId === action.clientId ? { ...u, state: 'failed', error: action.error } : u));
    case 'removed':
      return state.filter((u) => u.clientId !== action.clientId);
    case 'cleared':
      return [];
  }
}

/** How many more files the post can take (failed ones do not count: they will not be sent). */
export function roomLeft(state: readonly PendingUpload[]): number {
  return Math.max(0, MAX_FILES_PER_POST - state.filter((u) => u.state !== 'failed').length);
}

/** The ids to send as the post's `file_ids`: the uploaded files, in the order they were added. */
export function readyFileIds(state: readonly PendingUpload[]): string[] {
  return state.flatMap((u) => (u.state === 'done' && u.info ? [u.info.id] : []));
}

export function anyUploading(state: readonly PendingUpload[]): boolean {
  return state.some((u) => u.state === 'uploading');
}
