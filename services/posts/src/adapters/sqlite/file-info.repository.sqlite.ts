import { fromDocs, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { FileInfo } from '../../domain/files/file-info';
import type { FileInfoRepository } from '../../domain/files/file-ports';
import { mapDuplicates } from './sqlite-support';

export class SqliteFileInfoRepository implements FileInfoRepository {
  private readonly insertRow;
  private readonly byId;
  private readonly attachRow;
  private readonly byPost;
  private readonly deletePost;
  private readonly discardRow;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO p_file_infos (id, post_id, create_at, delete_at, doc) VALUES (?, ?, ?, ?, ?)');
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM p_file_infos WHERE id = ?');
    // One conditional write per file: a concurrent attach of the same file changes no row here.
    this.attachRow = db.prepare(
      `UPDATE p_file_infos SET post_id = ?, doc = json_set(doc, '$.post_id', ?, '$.update_at', ?)
        WHERE id = ? AND post_id = '' AND delete_at = 0 AND json_extract(doc, '$.user_id') = ? AND json_extract(doc, '$.channel_id') = ?`,
    );
    this.byPost = db.prepare<[string], DocRow>('SELECT doc FROM p_file_infos WHERE post_id = ? AND delete_at = 0 ORDER BY create_at, id');
    this.deletePost = db.prepare(
      `UPDATE p_file_infos SET delete_at = ?, doc = json_set(doc, '$.delete_at', ?, '$.update_at', ?) WHERE post_id = ? AND delete_at = 0`,
    );
    this.discardRow = db.prepare(
      `UPDATE p_file_infos SET delete_at = ?, doc = json_set(doc, '$.delete_at', ?, '$.update_at', ?)
        WHERE id = ? AND post_id = '' AND delete_at = 0 AND json_extract(doc, '$.user_id') = ?`,
    );
  }

  public async insert(info: FileInfo): Promise<void> {
    await this.store.writeOne(() => mapDuplicates({ id: 'id' }, () => this.insertRow.run(info.id, info.post_id, info.create_at, info.delete_at, JSON.stringify(info))));
  }

  public async findById(id: string): Promise<FileInfo | undefined> {
    return fromDocs<FileInfo>(this.byId.all(id))[0];
  }

  public async attach(ids: readonly string[], postId: string, channelId: string, userId: string, at: number): Promise<string[]> {
    return this.store.writeOne(() => ids.filter((id) => this.attachRow.run(postId, postId, at, id, userId, channelId).changes === 1));
  }

  public async listByPost(postId: string, among?: readonly string[]): Promise<FileInfo[]> {
    const files = fromDocs<FileInfo>(this.byPost.all(postId));
    if (!among) return files;
    const ids = new Set(among);
    return files.filter((f) => ids.has(f.id));
  }

  public async deleteByPost(postId: string, at: number): Promise<number> {
    return this.store.writeOne(() => this.deletePost.run(at, at, at, postId).changes);
  }

  public async discardUnattached(ids: readonly string[], userId: string, at: number): Promise<string[]> {
    return this.store.writeOne(() => ids.filter((id) => this.discardRow.run(at, at, at, id, userId).changes === 1));
  }
}
