import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Preference } from '../../domain/preferences/preference';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const PREFERENCES_COLLECTION = 'preferences';

export type PreferenceDocument = Preference & { _id?: unknown };

export const preferenceSchema = new Schema<PreferenceDocument>({ user_id: String, category: String, name: String, value: String }, SCHEMA_OPTIONS);

// The key (upsert, find, delete) and the user's lists (by category then name).
preferenceSchema.index({ user_id: 1, category: 1, name: 1 }, { unique: true });
// One preference of many users (posts asks for the collapsed-threads one).
preferenceSchema.index({ category: 1, name: 1, user_id: 1 });

export function preferenceModel(connection: Connection): Model<PreferenceDocument> {
  return modelOn(connection, 'UsersBotsPreference', preferenceSchema, PREFERENCES_COLLECTION);
}
