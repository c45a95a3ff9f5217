import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo } from '../access';
import type { Actor } from '../actor';
import type { FilesDeps } from './files-deps';
import { FileErrors } from './file-errors';
import type { FileInfo } from './file-info';
import type { ByteRange, OpenedObject } from './file-ports';

/**
 * A file the caller may read: the uploader always; anyone else needs read access to the channel of the
 * post it is attached to; an unattached file only its uploader (and holders of read_channel system-wide).
 * Unknown or deleted: 404 app.file_info.get.app_error.
 */
export async function readableFile(deps: FilesDeps, actor: Actor, fileId: string): Promise<FileInfo> {
  const info = await deps.files.findById(fileId);
  if (!info || info.delete_at !== 0) throw FileErrors.notFound();
  if (info.user_id === actor.userId || hasPermission(actor.roles, Permissions.readChannel)) return info;
  if (info.post_id !== '') {
    const channel = await deps.channels.findById(info.channel_id);
    if (channel && (await accessTo(deps, actor, channel).canRead())) return info;
  }
  throw commonErrors.permissions(actor.userId, Permissions.readChannel);
}

export type FileVariant = 'file' | 'thumbnail' | 'preview';

/**
 * The bytes of a file, its thumbnail or its preview, opened as a stream (the whole object, or `range`
 * of it), with the object's size: 400 when it has no thumbnail or preview, 404 when the store lost them.
 */
export async function openFileBytes(deps: FilesDeps, info: FileInfo, variant: FileVariant, range?: ByteRange): Promise<OpenedObject> {
  const opened = await deps.fileStore().open(storageKeyOf(info, variant), range);
  if (!opened) throw FileErrors.blobMissing();
  return opened;
}

/** The size of a file's, thumbnail's or preview's bytes (HEAD, ranges), 404 when the store lost them. */
export async function fileBytesSize(deps: FilesDeps, info: FileInfo, variant: FileVariant): Promise<number> {
  const size = await deps.fileStore().size(storageKeyOf(info, variant));
  if (size === undefined) throw FileErrors.blobMissing();
  return size;
}

function storageKeyOf(info: FileInfo, variant: FileVariant): string {
  if (variant === 'thumbnail') {
    if (info.thumbnail_path === '') throw FileErrors.noThumbnail();
    return info.thumbnail_path;
  }
  if (variant === 'preview') {
    if (info.preview_path === '') throw FileErrors.noPreview();
    return info.preview_path;
  }
  return info.path;
}

/** `GET /posts/{id}/files/info`: read access to the post's channel (a missing post is 403 too, as the reference). */
export async function postFileInfos(deps: FilesDeps, actor: Actor, postId: string): Promise<FileInfo[]> {
  const post = await deps.posts.findById(postId);
  const channel = post ? await deps.channels.findById(post.channel_id) : undefined;
  if (!post || !channel || !(await accessTo(deps, actor, channel).canRead())) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  if (post.delete_at !== 0) return [];
  return deps.files.listByPost(post.id);
}
