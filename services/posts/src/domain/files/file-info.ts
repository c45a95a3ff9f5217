/**
 * A file's metadata as stored (mattermost-wire-3.md §1.1): the reference's FileInfo JSON plus the storage
 * keys of the bytes, the thumbnail and the preview, which never leave the service.
 */
export interface FileInfo {
  readonly id: string;
  /** The uploader. */
  readonly user_id: string;
  /** '' until attached to a post. */
  readonly post_id: string;
  /** The upload channel, then the post's channel once attached (the newest reference). */
  readonly channel_id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  readonly name: string;
  readonly extension: string;
  readonly size: number;
  readonly mime_type: string;
  readonly width?: number;
  readonly height?: number;
  readonly has_preview_image?: boolean;
  /** Base64 of a tiny JPEG, or null. */
  readonly mini_preview: string | null;
  readonly path: string;
  readonly thumbnail_path: string;
  readonly preview_path: string;
}

/** The FileInfo JSON of the reference (no storage keys; post_id only when attached). */
export function presentFileInfo(info: FileInfo): Record<string, unknown> {
  const { path: _path, thumbnail_path: _thumb, preview_path: _preview, post_id: postId, width, height, has_preview_image: hasPreview, ...rest } = info;
  return {
    ...rest,
    ...(postId !== '' ? { post_id: postId } : {}),
    ...(width ? { width } : {}),
    ...(height ? { height } : {}),
    ...(hasPreview ? { has_preview_image: true } : {}),
    remote_id: '',
    archived: false,
  };
}

/** Most files one post may carry (its file_ids' JSON is at most 300 runes: 10 ids). */
export const MAX_FILES_PER_POST = 10;
