import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const IMAGES_COLLECTION = 'images';

/**
 * A stored picture: one document per key (`users/<id>/profile.png`, `bots/<id>/icon.svg`), the bytes
 * as BinData. Pictures are capped well under MongoDB's 16 MiB document limit (MAX_STORED_IMAGE_BYTES),
 * so one document replaced in one write is enough (GridFS would split a file into chunks written one
 * after another; see docs/adr).
 */
export interface ImageDocument {
  _id: string;
  contentType: string;
  data: Buffer;
  updateAt: number;
}

export const imageSchema = new Schema<ImageDocument>(
  {
    _id: { type: String },
    contentType: { type: String },
    data: { type: Buffer },
    updateAt: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): put (upsert), get, delete by key. No other index.

export function imageModel(connection: Connection): Model<ImageDocument> {
  return modelOn(connection, 'Image', imageSchema, IMAGES_COLLECTION);
}
