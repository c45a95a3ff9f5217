import type { Model } from '@switchyard/mongo-kit';
import type { ChannelMember } from '../../domain/entities';
import type { ChannelMemberRepository, MemberViewChanges, MentionTargets, Page } from '../../domain/ports';
import { fromChannelMemberDocument, type ChannelMemberDocument } from './channel-member.schema.mongo';
import { asDomainError, pageWindow } from './mongo-support';

/** Keys become field paths: plain lower-case words only (no `.` or `$`). */
const NOTIFY_KEY = /^[a-z_]{1,64}$/;
const OLDEST_FIRST = { create_at: 1, user_id: 1 } as const;

export class MongoChannelMemberRepository implements ChannelMemberRepository {
  public constructor(private readonly model: Model<ChannelMemberDocument>) {}

  public async insert(member: ChannelMember): Promise<void> {
    try {
      await this.model.create({ ...member });
    } catch (error) {
      throw asDomainError(error, { channel_id: 'member', user_id: 'member', _id: 'member' });
    }
  }

  public async find(channelId: string, userId: string): Promise<ChannelMember | undefined> {
    const doc = await this.model.findOne({ channel_id: channelId, user_id: userId }).lean<ChannelMemberDocument>();
    return doc ? fromChannelMemberDocument(doc) : undefined;
  }

  public async delete(channelId: string, userId: string): Promise<boolean> {
    const result = await this.model.deleteOne({ channel_id: channelId, user_id: userId });
    return result.deletedCount > 0;
  }

  public async update(channelId: string, userId: string, changes: MemberViewChanges): Promise<ChannelMember | undefined> {
    const doc = await this.model
      .findOneAndUpdate({ channel_id: channelId, user_id: userId }, { $set: { ...changes } }, { new: true })
      .lean<ChannelMemberDocument>();
    return doc ? fromChannelMemberDocument(doc) : undefined;
  }

  public async incrementMentions(channelId: string, targets: MentionTargets, root: boolean, at: number, urgent = false): Promise<void> {
    if (targets.userIds.length === 0) return;
    await this.model.updateMany({ channel_id: channelId, user_id: { $in: [...targets.userIds] } }, { $inc: { mention_count: 1, mention_count_root: root ? 1 : 0, urgent_mention_count: urgent ? 1 : 0 }, $set: { last_update_at: at } });
  }

  /** One `$set` per key (`notify_props.<key>`): other keys and concurrent updates of other keys stay. */
  public async updateNotifyProps(channelId: string, userId: string, props: Readonly<Record<string, string>>, at: number): Promise<ChannelMember | undefined> {
    const set: Record<string, unknown> = { last_update_at: at };
    for (const [key, value] of Object.entries(props)) {
      if (!NOTIFY_KEY.test(key)) throw new Error(`notify prop key not storable: ${key}`);
      set[`notify_props.${key}`] = value;
    }
    const doc = await this.model.findOneAndUpdate({ channel_id: channelId, user_id: userId }, { $set: set }, { new: true }).lean<ChannelMemberDocument>();
    return doc ? fromChannelMemberDocument(doc) : undefined;
  }

  public async listByChannel(channelId: string, page: Page): Promise<ChannelMember[]> {
    const window = pageWindow(page);
    if (!window) return [];
    const docs = await this.model.find({ channel_id: channelId }).sort(OLDEST_FIRST).skip(window.skip).limit(window.limit).lean<ChannelMemberDocument[]>();
    return docs.map(fromChannelMemberDocument);
  }

  public async listByUser(userId: string): Promise<ChannelMember[]> {
    const docs = await this.model.find({ user_id: userId }).sort({ create_at: 1, channel_id: 1 }).lean<ChannelMemberDocument[]>();
    return docs.map(fromChannelMemberDocument);
  }

  public async channelIdsOfUser(userId: string): Promise<string[]> {
    const docs = await this.model.find({ user_id: userId }, { channel_id: 1, _id: 0 }).lean<{ channel_id: string }[]>();
    return docs.map((d) => d.channel_id);
  }

  /** Covered by the unique (channel_id, user_id) index. */
  public async userIdsOfChannel(channelId: string, limit: number, after?: string): Promise<string[]> {
    if (limit <= 0) return [];
    const filter = after === undefined ? { channel_id: channelId } : { channel_id: channelId, user_id: { $gt: after } };
    const docs = await this.model.find(filter, { user_id: 1, _id: 0 }).sort({ user_id: 1 }).limit(limit).lean<{ user_id: string }[]>();
    return docs.map((d) => d.user_id);
  }
}
