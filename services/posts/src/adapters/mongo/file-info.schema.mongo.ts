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
// attach's and discardUnattached's conditional claims, one per file: the MongoDB-wire emulator uses an index only
// for a filter of exactly its fields, so these scanned the whole collection there per file (ADR 0037's
// addendum); MongoDB answers them from _id either way, at the cost of one more index entry per write.
fileInfoSchema.index({ _id: 1, post_id: 1, delete_at: 1, user_id: 1, channel_id: 1 }, { unique: true });
fileInfoSchema.index({ _id: 1, post_id: 1, delete_at: 1, user_id: 1 }, { unique: true });

export function fileInfoModel(connection: Connection): Model<FileInfoDocument> {
  return modelOn(connection, 'PostsFileInfo', fileInfoSchema, FILE_INFOS_COLLECTION);
}

export const fromFileInfoDocument = (doc: FileInfoDocument): FileInfo => withoutMongoKeys<FileInfo>(doc as unknown as Record<string, unknown>, true);
