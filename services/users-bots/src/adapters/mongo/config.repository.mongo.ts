import type { Model } from '@switchyard/mongo-kit';
import type { SystemConfig } from '@switchyard/system-config';
import type { ConfigRepository } from '../../domain/ports';
import { SYSTEM_CONFIG_ID, type ConfigDocument } from './config.schema.mongo';

export class MongoConfigRepository implements ConfigRepository {
  public constructor(private readonly model: Model<ConfigDocument>) {}

  public async load(): Promise<Record<string, unknown> | undefined> {
    const doc = await this.model.findById(SYSTEM_CONFIG_ID).lean<ConfigDocument>();
    return doc?.config;
  }

  /** Replaces the stored config with this one (an upsert of the single document, atomic on its own). */
  public async save(config: SystemConfig): Promise<void> {
    const snapshot = structuredClone(config) as unknown as Record<string, unknown>;
    await this.model.updateOne({ _id: SYSTEM_CONFIG_ID }, { $set: { config: snapshot } }, { upsert: true });
  }
}
