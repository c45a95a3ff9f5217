import type { Model } from '@switchyard/mongo-kit';
import type { Preference } from '../../domain/preferences/preference';
import type { PreferenceRepository } from '../../domain/preferences/preference-ports';
import type { PreferenceDocument } from './preference.schema.mongo';

const plain = (d: PreferenceDocument): Preference => ({ user_id: d.user_id, category: d.category, name: d.name, value: d.value });

export class MongoPreferenceRepository implements PreferenceRepository {
  public constructor(private readonly model: Model<PreferenceDocument>) {}

  public async listByUser(userId: string): Promise<Preference[]> {
    return (await this.model.find({ user_id: String(userId) }).sort({ category: 1, name: 1 }).lean<PreferenceDocument[]>()).map(plain);
  }

  public async listByCategory(userId: string, category: string): Promise<Preference[]> {
    return (await this.model.find({ user_id: String(userId), category: String(category) }).sort({ name: 1 }).lean<PreferenceDocument[]>()).map(plain);
  }

  public async find(userId: string, category: string, name: string): Promise<Preference | undefined> {
    const doc = await this.model.findOne({ user_id: String(userId), category: String(category), name: String(name) }).lean<PreferenceDocument>();
    return doc ? plain(doc) : undefined;
  }

  public async save(preferences: readonly Preference[]): Promise<void> {
    if (preferences.length === 0) return;
    await this.model.bulkWrite(
      preferences.map((p) => ({
        updateOne: { filter: { user_id: p.user_id, category: p.category, name: p.name }, update: { $set: { value: p.value } }, upsert: true },
      })),
      { ordered: true },
    );
  }

  public async delete(userId: string, category: string, name: string): Promise<boolean> {
    return (await this.model.deleteOne({ user_id: String(userId), category: String(category), name: String(name) })).deletedCount > 0;
  }

  public async valuesOf(userIds: readonly string[], category: string, name: string): Promise<ReadonlyMap<string, string>> {
    const docs = await this.model.find({ category: String(category), name: String(name), user_id: { $in: [...new Set(userIds.map(String))] } }).lean<PreferenceDocument[]>();
    return new Map(docs.map((d) => [d.user_id, d.value]));
  }
}
