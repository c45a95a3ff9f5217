import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { ThreadMembership } from '../../domain/threads/thread-ports';
import { modelOn, SCHEMA_OPTIONS, withoutMongoKeys } from './mongo-support';

export const THREAD_MEMBERSHIPS_COLLECTION = 'thread_memberships';

/** A stored thread membership: the entity; `_id` is mongoose's ObjectId and never leaves the adapter. */
export type ThreadMembershipDocument = ThreadMembership & { _id?: unknown };

export const threadMembershipSchema = new Schema<ThreadMembershipDocument>(
  {
    post_id: String,
    user_id: String,
    channel_id: String,
    team_id: String,
    following: Boolean,
    last_viewed: Number,
    last_updated: Number,
    unread_mentions: Number,
  },
  SCHEMA_OPTIONS,
);

// find and maintain (upsert by the pair); one membership per thread and user.
threadMembershipSchema.index({ post_id: 1, user_id: 1 }, { unique: true });
// listFollowing and markAllRead (a user's memberships in a team and in direct/group channels).
threadMembershipSchema.index({ user_id: 1, team_id: 1, following: 1 });

export function threadMembershipModel(connection: Connection): Model<ThreadMembershipDocument> {
  return modelOn(connection, 'PostsThreadMembership', threadMembershipSchema, THREAD_MEMBERSHIPS_COLLECTION);
}

export const fromThreadMembershipDocument = (doc: ThreadMembershipDocument): ThreadMembership =>
  withoutMongoKeys<ThreadMembership>(doc as unknown as Record<string, unknown>, false);
