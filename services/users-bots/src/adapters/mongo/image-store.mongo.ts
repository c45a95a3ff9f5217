import type { Model } from '@switchyard/mongo-kit';
import { MAX_STORED_IMAGE_BYTES, type ImageStore, type StoredImage } from '../../domain/ports';
import { assertStorable } from '../images/storable';
import type { ImageDocument } from './image.schema.mongo';

/** BinData as the driver hands it back from a lean read (a `Binary`), or a Buffer. */
function bytesOf(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return Buffer.from(data);
  const binary = data as { buffer?: unknown };
  if (binary.buffer instanceof Uint8Array) return Buffer.from(binary.buffer);
  throw new TypeError('a stored image holds no binary data');
}

/** Pictures in MongoDB: one document per key, replaced whole by an upsert. */
export class MongoImageStore implements ImageStore {
  public constructor(private readonly model: Model<ImageDocument>) {}

  public async put(key: string, image: StoredImage): Promise<void> {
    assertStorable(image, MAX_STORED_IMAGE_BYTES);
    await this.model.replaceOne({ _id: key }, { _id: key, contentType: image.contentType, data: image.data, updateAt: image.updateAt }, { upsert: true });
  }

  public async get(key: string): Promise<StoredImage | undefined> {
    const doc = await this.model.findById(key).lean<ImageDocument>();
    return doc ? { contentType: doc.contentType, data: bytesOf(doc.data), updateAt: doc.updateAt } : undefined;
  }

  public async delete(key: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: key });
    return result.deletedCount === 1;
  }
}
