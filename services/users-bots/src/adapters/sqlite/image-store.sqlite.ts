import type { SqliteStore } from '@switchyard/sqlite-kit';
import { MAX_STORED_IMAGE_BYTES, type ImageStore, type StoredImage } from '../../domain/ports';
import { assertStorable } from '../images/storable';

interface ImageRow {
  content_type: string;
  data: Buffer;
  update_at: number;
}

/** Pictures in the embedded SQLite store: one row per key, the bytes as a BLOB. */
export class SqliteImageStore implements ImageStore {
  private readonly upsert;
  private readonly byKey;
  private readonly deleteRow;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.upsert = db.prepare(
      'INSERT INTO ub_images (key, content_type, data, update_at) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (key) DO UPDATE SET content_type = excluded.content_type, data = excluded.data, update_at = excluded.update_at',
    );
    this.byKey = db.prepare<[string], ImageRow>('SELECT content_type, data, update_at FROM ub_images WHERE key = ?');
    this.deleteRow = db.prepare('DELETE FROM ub_images WHERE key = ?');
  }

  public async put(key: string, image: StoredImage): Promise<void> {
    assertStorable(image, MAX_STORED_IMAGE_BYTES);
    await this.store.write(() => this.upsert.run(key, image.contentType, image.data, image.updateAt));
  }

  public async get(key: string): Promise<StoredImage | undefined> {
    const row = this.byKey.get(key);
    return row ? { contentType: row.content_type, data: Buffer.from(row.data), updateAt: row.update_at } : undefined;
  }

  public async delete(key: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(key).changes === 1);
  }
}
