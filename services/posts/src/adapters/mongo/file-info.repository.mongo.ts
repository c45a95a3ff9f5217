import type { Model } from '@switchyard/mongo-kit';
import type { FileInfo } from '../../domain/files/file-info';
import type { FileInfoRepository } from '../../domain/files/file-ports';
import { asDomainError, byId } from './mongo-support';
import { fromFileInfoDocument, type FileInfoDocument } from './file-info.schema.mongo';

export class MongoFileInfoRepository implements FileInfoRepository {
  public constructor(private readonly model: Model<FileInfoDocument>) {}

  public async insert(info: FileInfo): Promise<void> {
    const { id, ...rest } = info;
    try {
      await this.model.collection.insertOne({ _id: id, ...rest } as never);
    } catch (error) {
      throw asDomainError(error, { _id: 'id' });
    }
  }

  public async findById(id: string): Promise<FileInfo | undefined> {
    const doc = await this.model.collection.findOne(byId(id));
    return doc ? fromFileInfoDocument(doc as unknown as FileInfoDocument) : undefined;
  }

  public async attach(ids: readonly string[], postId: string, channelId: string, userId: string, at: number): Promise<string[]> {
    const attached: string[] = [];
    // One conditional single-document update per file: a concurrent attach of the same file matches nothing.
    for (const id of ids) {
      const result = await this.model.collection.updateOne({ _id: id, post_id: '', delete_at: 0, user_id: userId, channel_id: channelId } as never, {
        $set: { post_id: postId, update_at: at },
      });
      if (result.modifiedCount === 1) attached.push(id);
    }
    return attached;
  }

  /**
   * With `among`: a read by `_id` (`$in`), the rest checked here. The filter `{ post_id, delete_at }` is a scan of
   * the whole collection on the MongoDB-wire emulator (it builds no non-unique index: ADR 0037's addendum), paid
   * by every post created with files.
   */
  public async listByPost(postId: string, among?: readonly string[]): Promise<FileInfo[]> {
    if (among) {
      if (among.length === 0) return [];
      const found = (await this.model.collection.find({ _id: { $in: [...new Set(among)] } } as never).toArray()) as unknown as FileInfoDocument[];
      return found
        .filter((d) => d.post_id === postId && d.delete_at === 0)
        .sort((a, b) => a.create_at - b.create_at || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
        .map((d) => fromFileInfoDocument(d));
    }
    const docs = await this.model.collection.find({ post_id: postId, delete_at: 0 }).sort({ create_at: 1, _id: 1 }).toArray();
    return docs.map((d) => fromFileInfoDocument(d as unknown as FileInfoDocument));
  }

  public async deleteByPost(postId: string, at: number): Promise<number> {
    const result = await this.model.collection.updateMany({ post_id: postId, delete_at: 0 }, { $set: { delete_at: at, update_at: at } });
    return result.modifiedCount;
  }

  public async discardUnattached(ids: readonly string[], userId: string, at: number): Promise<string[]> {
    const discarded: string[] = [];
    for (const id of ids) {
      const result = await this.model.collection.updateOne({ _id: id, post_id: '', delete_at: 0, user_id: userId } as never, { $set: { delete_at: at, update_at: at } });
      if (result.modifiedCount === 1) discarded.push(id);
    }
    return discarded;
  }
}
