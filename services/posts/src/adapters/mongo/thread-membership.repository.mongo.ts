import { isDuplicateKeyError, type Model } from '@switchyard/mongo-kit';
import type { ThreadMembership, ThreadMembershipChange, ThreadMembershipKey, ThreadMembershipRepository } from '../../domain/threads/thread-ports';
import { fromThreadMembershipDocument, type ThreadMembershipDocument } from './thread-membership.schema.mongo';

/** The update of one maintain call: $set what the change sets, $inc a new mention, the rest only on insert. */
function updateOf(key: ThreadMembershipKey, change: ThreadMembershipChange): Record<string, unknown> {
  const set: Record<string, unknown> = { last_updated: change.last_updated };
  const inc: Record<string, number> = {};
  const onInsert: Record<string, unknown> = { channel_id: key.channel_id, team_id: key.team_id };
  if (change.following !== undefined) set.following = change.following;
  else onInsert.following = false;
  if (change.last_viewed !== undefined) set.last_viewed = change.last_viewed;
  else onInsert.last_viewed = 0;
  if (change.unread_mentions !== undefined) set.unread_mentions = change.unread_mentions;
  else if (change.add_mentions !== undefined && change.add_mentions !== 0) inc.unread_mentions = change.add_mentions;
  else onInsert.unread_mentions = 0;
  return { $set: set, $setOnInsert: onInsert, ...(Object.keys(inc).length > 0 ? { $inc: inc } : {}) };
}

/**
 * Thread memberships on mongoose; the reads every reply makes (`find`, `listFollowers`) go to the driver's
 * collection directly (plain filters on string and boolean fields: mongoose's query objects and casting
 * cost more CPU than the round trip).
 */
export class MongoThreadMembershipRepository implements ThreadMembershipRepository {
  public constructor(private readonly model: Model<ThreadMembershipDocument>) {}

  public async find(postId: string, userId: string): Promise<ThreadMembership | undefined> {
    const doc = (await this.model.collection.findOne({ post_id: postId, user_id: userId })) as ThreadMembershipDocument | null;
    return doc ? fromThreadMembershipDocument(doc) : undefined;
  }

  public async maintain(key: ThreadMembershipKey, change: ThreadMembershipChange): Promise<ThreadMembership> {
    const filter = { post_id: key.post_id, user_id: key.user_id };
    const update = updateOf(key, change);
    const once = (): Promise<ThreadMembershipDocument | null> =>
      this.model.findOneAndUpdate(filter, update, { upsert: true, new: true }).lean<ThreadMembershipDocument>().exec();
    let doc: ThreadMembershipDocument | null;
    try {
      doc = await once();
    } catch (error) {
      // Two first writes raced on the unique pair: the loser's update now finds the winner's document.
      if (!isDuplicateKeyError(error)) throw error;
      doc = await once();
    }
    if (!doc) throw new Error(`thread membership ${key.post_id}/${key.user_id} not written`);
    return fromThreadMembershipDocument(doc);
  }

  public async listFollowing(userId: string, teamIds: readonly string[]): Promise<ThreadMembership[]> {
    const docs = await this.model.find({ user_id: userId, team_id: { $in: [...teamIds] }, following: true }).lean<ThreadMembershipDocument[]>();
    return docs.map(fromThreadMembershipDocument);
  }

  public async listFollowers(postId: string): Promise<ThreadMembership[]> {
    const docs = (await this.model.collection.find({ post_id: postId, following: true }).toArray()) as unknown as ThreadMembershipDocument[];
    return docs.map(fromThreadMembershipDocument);
  }

  public async markAllRead(userId: string, teamIds: readonly string[], at: number): Promise<number> {
    const result = await this.model.updateMany({ user_id: userId, team_id: { $in: [...teamIds] } }, { $set: { last_viewed: at, last_updated: at, unread_mentions: 0 } });
    return result.matchedCount;
  }
}
