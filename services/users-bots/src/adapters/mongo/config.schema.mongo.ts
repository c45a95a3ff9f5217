import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const SYSTEM_CONFIG_COLLECTION = 'system_config';
/** The one document of the collection. */
export const SYSTEM_CONFIG_ID = 'system';

/**
 * The stored system config: one document, the Mattermost config object as a sub-document under
 * `config` (so its keys can never clash with `_id`), written whole on every save.
 */
export interface ConfigDocument {
  _id: string;
  config: Record<string, unknown>;
}

export const configSchema = new Schema<ConfigDocument>(
  {
    _id: { type: String },
    config: { type: Schema.Types.Mixed },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): load and save of the single document. No other index.

export function configModel(connection: Connection): Model<ConfigDocument> {
  return modelOn(connection, 'SystemConfig', configSchema, SYSTEM_CONFIG_COLLECTION);
}
