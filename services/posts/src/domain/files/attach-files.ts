import type { PostSource } from '@switchyard/contracts';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { fileAttachedEvents } from '../posts/post-events';
import { MAX_FILES_PER_POST, presentFileInfo } from './file-info';

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
  // A new post id: its files are the ones just attached.
  const infos = await deps.files.listByPost(post.id, attached);
  return { fileIds: attached, files: infos.map((info) => presentFileInfo(info)) };
}

/**
 * The files of a `post.create` command (an incoming hook's uploads), attached before the post is inserted:
 * the same rules as attachFiles, at most MAX_FILES_PER_POST. Files already attached to this very post id
 * count too, so a command run again after a failed insert keeps its files. Sets the post's `file_ids`,
 * `metadata.files` and its `file.attached` events.
 */
export async function attachCommandFiles(deps: Pick<Deps, 'files'>, post: StoredPost, fileIds: readonly string[] | undefined, at: number, source: PostSource): Promise<void> {
  const unique = [...new Set(fileIds ?? [])].slice(0, MAX_FILES_PER_POST);
  if (unique.length === 0) return;
  await deps.files.attach(unique, post.id, post.channel_id, post.user_id, at);
  const infos = await deps.files.listByPost(post.id, unique);
  if (infos.length === 0) return;
  post.file_ids = unique.filter((id) => infos.some((info) => info.id === id));
  post.metadata = { ...(post.metadata ?? {}), files: infos.map((info) => presentFileInfo(info)) };
  post.pending_events.push(...fileAttachedEvents(post.id, post.file_ids, at, source));
}
