import { MAX_STORED_IMAGE_BYTES, type ImageStore, type StoredImage } from '../../domain/ports';
import { assertStorable } from '../images/storable';

/** Pictures in process memory (unit tests, and a service started without MongoDB). */
export class MemoryImageStore implements ImageStore {
  private readonly images = new Map<string, StoredImage>();

  public async put(key: string, image: StoredImage): Promise<void> {
    assertStorable(image, MAX_STORED_IMAGE_BYTES);
    this.images.set(key, { ...image, data: Buffer.from(image.data) });
  }

  public async get(key: string): Promise<StoredImage | undefined> {
    const image = this.images.get(key);
    return image ? { ...image, data: Buffer.from(image.data) } : undefined;
  }

  public async delete(key: string): Promise<boolean> {
    return this.images.delete(key);
  }
}
