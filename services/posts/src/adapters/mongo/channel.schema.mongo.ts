import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Channel } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const CHANNELS_COLLECTION = 'channels';

/** A stored channel: the entity with `id` as `_id`. */
export type ChannelDocument = Omit<Channel, 'id'> & { _id: string };

export const channelSchema = new Schema<ChannelDocument>(
  {
    _id: { type: String },
    create_at: Number,
    update_at: Number,
    delete_at: Number,
    team_id: String,
    team_name: String,
    type: String,
    display_name: String,
    name: String,
    header: String,
    purpose: String,
    last_post_at: Number,
    total_msg_count: Number,
    total_msg_count_root: Number,
    last_root_post_at: Number,
    extra_update_at: Number,
    creator_id: String,
  },
  SCHEMA_OPTIONS,
);

// findByName (team + name, archived included); one name per team (DMs share team_id ""): DuplicateKeyError('name').
channelSchema.index({ team_id: 1, name: 1 }, { unique: true });
// listByTeam: a team's channels of some types, unarchived (or not), by display name then id, paged.
channelSchema.index({ team_id: 1, type: 1, delete_at: 1, display_name: 1, _id: 1 });

export function channelModel(connection: Connection): Model<ChannelDocument> {
  return modelOn(connection, 'PostsChannel', channelSchema, CHANNELS_COLLECTION);
}

export const fromChannelDocument = (doc: ChannelDocument): Channel => withoutMongoKeys<Channel>(doc as unknown as Record<string, unknown>, true);
export const toChannelDocument = ({ id, ...rest }: Channel): ChannelDocument => ({ _id: id, ...rest });
