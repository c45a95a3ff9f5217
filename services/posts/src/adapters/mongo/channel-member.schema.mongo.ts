import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { ChannelMember } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const CHANNEL_MEMBERS_COLLECTION = 'channel_members';

/** A stored membership: the entity; `_id` is mongoose's ObjectId and never leaves the adapter. */
export type ChannelMemberDocument = ChannelMember & { _id?: unknown };

export const channelMemberSchema = new Schema<ChannelMemberDocument>(
  {
    channel_id: String,
    user_id: String,
    scheme_user: Boolean,
    scheme_admin: Boolean,
    explicit_roles: String,
    last_viewed_at: Number,
    msg_count: Number,
    mention_count: Number,
    mention_count_root: Number,
    urgent_mention_count: Number,
    msg_count_root: Number,
    // Only the keys a member set (absent on memberships never set), merged with `$set` per key.
    notify_props: { type: Schema.Types.Mixed, default: undefined },
    last_update_at: Number,
    create_at: Number,
  },
  SCHEMA_OPTIONS,
);

// find, delete (by channel and user); one membership per pair: DuplicateKeyError('member').
channelMemberSchema.index({ channel_id: 1, user_id: 1 }, { unique: true });
// listByChannel (oldest first: create_at, then user_id, paged).
channelMemberSchema.index({ channel_id: 1, create_at: 1, user_id: 1 });
// listByUser (a user's channels, oldest first).
channelMemberSchema.index({ user_id: 1, create_at: 1 });

export function channelMemberModel(connection: Connection): Model<ChannelMemberDocument> {
  return modelOn(connection, 'PostsChannelMember', channelMemberSchema, CHANNEL_MEMBERS_COLLECTION);
}

export const fromChannelMemberDocument = (doc: ChannelMemberDocument): ChannelMember => withoutMongoKeys<ChannelMember>(doc as unknown as Record<string, unknown>, false);
