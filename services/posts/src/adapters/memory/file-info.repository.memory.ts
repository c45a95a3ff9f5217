import type { FileInfo } from '../../domain/files/file-info';
import type { FileInfoRepository } from '../../domain/files/file-ports';
import { DuplicateKeyError } from '../../domain/errors';
import { compareIds, copy } from './memory-utils';

export class MemoryFileInfoRepository implements FileInfoRepository {
  private readonly byId = new Map<string, FileInfo>();

  public async insert(info: FileInfo): Promise<void> {
    if (this.byId.has(info.id)) throw new DuplicateKeyError('id');
    this.byId.set(info.id, copy(info));
  }

  public async findById(id: string): Promise<FileInfo | undefined> {
    const info = this.byId.get(id);
    return info ? copy(info) : undefined;
  }

  public async attach(ids: readonly string[], postId: string, channelId: string, userId: string, at: number): Promise<string[]> {
    const attached: string[] = [];
    for (const id of ids) {
      const info = this.byId.get(id);
      if (!info || info.post_id !== '' || info.delete_at !== 0 || info.user_id !== userId || info.channel_id !== channelId) continue;
      this.byId.set(id, { ...info, post_id: postId, update_at: at });
      attached.push(id);
    }
    return attached;
  }

  public async listByPost(postId: string, among?: readonly string[]): Promise<FileInfo[]> {
    const ids = among ? new Set(among) : undefined;
    return [...this.byId.values()]
      .filter((f) => f.post_id === postId && f.delete_at === 0 && (!ids || ids.has(f.id)))
      .sort((a, b) => a.create_at - b.create_at || compareIds(a.id, b.id))
      .map(copy);
  }

  public async deleteByPost(postId: string, at: number): Promise<number> {
    let n = 0;
    for (const info of this.byId.values()) {
      if (info.post_id !== postId || info.delete_at !== 0) continue;
      this.byId.set(info.id, { ...info, delete_at: at, update_at: at });
      n += 1;
    }
    return n;
  }

  public async discardUnattached(ids: readonly string[], userId: string, at: number): Promise<string[]> {
    const discarded: string[] = [];
    for (const id of ids) {
      const info = this.byId.get(id);
      if (!info || info.post_id !== '' || info.delete_at !== 0 || info.user_id !== userId) continue;
      this.byId.set(id, { ...info, delete_at: at, update_at: at });
      discarded.push(id);
    }
    return discarded;
  }
}
