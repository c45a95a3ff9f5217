import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { FileInfo } from '../../domain/files/file-info';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const FILE_INFOS_COLLECTION = 'file_infos';

/** A stored file info: `_id` is the file id. */
export type FileInfoDocument = Omit<FileInfo, 'id'> & { _id: string };

export const fileInfoSchema = new Schema<FileInfoDocument>(
  {
    _id: String,
    user_id: String,
    post_id: String,
    channel_id: String,
    create_at: Number,
    update_at: Number,
    delete_at: Number,
    name: String,
    extension: String,
    size: Number,
    mime_type: String,
    width: Number,
    height: Number,
    has_preview_image: Boolean,
    mini_preview: { type: String, default: null },
    path: String,
    thumbnail_path: String,
    preview_path: String,
  },
  SCHEMA_OPTIONS,
);

// listByPost (oldest first) and deleteByPost.
fileInfoSchema.index({ post_id: 1, create_at: 1 });

export function fileInfoModel(connection: Connection): Model<FileInfoDocument> {
  return modelOn(connection, 'PostsFileInfo', fileInfoSchema, FILE_INFOS_COLLECTION);
}

export const fromFileInfoDocument = (doc: FileInfoDocument): FileInfo => withoutMongoKeys<FileInfo>(doc as unknown as Record<string, unknown>, true);
