import type { Model } from '@switchyard/mongo-kit';
import type { OpenDialogMatch, OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';
import type { OpenDialogRepository } from '../../domain/ports';
import { fromOpenDialogDocument, toOpenDialogDocument, type OpenDialogDocument } from './open-dialog.schema.mongo';

/** Open dialogs shared by every outgoing-dispatch instance (a dialog opened on one is submitted on another). */
export class MongoOpenDialogRepository implements OpenDialogRepository {
  public constructor(private readonly model: Model<OpenDialogDocument>) {}

  public async insert(dialog: OpenDialogRecord, keepPerUser: number): Promise<void> {
    await this.model.deleteMany({ expiresAt: { $lte: dialog.createAt } });
    await this.model.replaceOne({ _id: dialog.id }, toOpenDialogDocument(dialog), { upsert: true });
    const older = await this.model.find({ userId: dialog.userId }, { _id: 1 }).sort({ createAt: -1, _id: -1 }).skip(keepPerUser).lean<{ _id: string }[]>();
    if (older.length > 0) await this.model.deleteMany({ _id: { $in: older.map((d) => d._id) } });
  }

  public async findOpen(match: OpenDialogMatch, now: number): Promise<OpenDialogRecord | undefined> {
    const doc = await this.model
      .findOne({ userId: match.userId, ...(match.url !== undefined ? { url: match.url } : {}), callbackId: match.callbackId, state: match.state, expiresAt: { $gt: now } })
      .sort({ createAt: -1, _id: -1 })
      .lean<OpenDialogDocument>();
    return doc ? fromOpenDialogDocument(doc) : undefined;
  }

  public async remove(id: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id })).deletedCount === 1;
  }
}
