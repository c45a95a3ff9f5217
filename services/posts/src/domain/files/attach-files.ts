import type { Deps } from '../ports';
import { presentFileInfo } from './file-info';

export interface AttachedFiles {
  /** The ids attached, in the order asked (duplicates removed). */
  readonly fileIds: string[];
  /** `metadata.files`: their FileInfos, oldest first; undefined when none. */
  readonly files?: Record<string, unknown>[];
}

/**
 * Attaches a new post's files (mattermost-wire-3.md §1.5): each id only if the file exists, is not attached
 * yet and was uploaded by the author in the post's channel; the others are dropped silently, as the reference.
 */
export async function attachFiles(deps: Pick<Deps, 'files'>, post: { id: string; channel_id: string; user_id: string }, fileIds: readonly string[], at: number): Promise<AttachedFiles> {
  const unique = [...new Set(fileIds)];
  if (unique.length === 0) return { fileIds: [] };
  const attached = await deps.files.attach(unique, post.id, post.channel_id, post.user_id, at);
  if (attached.length === 0) return { fileIds: [] };
  const infos = await deps.files.listByPost(post.id);
  return { fileIds: attached, files: infos.map((info) => presentFileInfo(info)) };
}
