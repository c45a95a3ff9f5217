import type { ChannelMember } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { ChannelMemberRepository, MemberViewChanges, MentionTargets, Page } from '../../domain/ports';
import { compareIds, copy, paginate } from './memory-utils';

const keyOf = (channelId: string, userId: string): string => `${channelId}:${userId}`;
const oldestFirst = (a: ChannelMember, b: ChannelMember): number => a.create_at - b.create_at || compareIds(a.user_id, b.user_id);

export class MemoryChannelMemberRepository implements ChannelMemberRepository {
  private readonly byKey = new Map<string, ChannelMember>();

  public async insert(member: ChannelMember): Promise<void> {
    const key = keyOf(member.channel_id, member.user_id);
    if (this.byKey.has(key)) throw new DuplicateKeyError('member');
    this.byKey.set(key, copy(member));
  }

  public async find(channelId: string, userId: string): Promise<ChannelMember | undefined> {
    const member = this.byKey.get(keyOf(channelId, userId));
    return member ? copy(member) : undefined;
  }

  public async delete(channelId: string, userId: string): Promise<boolean> {
    return this.byKey.delete(keyOf(channelId, userId));
  }

  public async update(channelId: string, userId: string, changes: MemberViewChanges): Promise<ChannelMember | undefined> {
    const key = keyOf(channelId, userId);
    const member = this.byKey.get(key);
    if (!member) return undefined;
    const next = { ...member, ...changes };
    this.byKey.set(key, next);
    return copy(next);
  }

  public async incrementMentions(channelId: string, targets: MentionTargets, root: boolean, at: number, urgent = false): Promise<void> {
    const members = [...this.byKey.values()].filter((m) => m.channel_id === channelId);
    const named = new Set(targets.userIds);
    for (const member of members) {
      if (!named.has(member.user_id)) continue;
      this.byKey.set(keyOf(channelId, member.user_id), {
        ...member,
        mention_count: member.mention_count + 1,
        mention_count_root: (member.mention_count_root ?? 0) + (root ? 1 : 0),
        urgent_mention_count: (member.urgent_mention_count ?? 0) + (urgent ? 1 : 0),
        last_update_at: at,
      });
    }
  }

  public async updateNotifyProps(channelId: string, userId: string, props: Readonly<Record<string, string>>, at: number): Promise<ChannelMember | undefined> {
    const key = keyOf(channelId, userId);
    const member = this.byKey.get(key);
    if (!member) return undefined;
    const next = { ...member, notify_props: { ...member.notify_props, ...props }, last_update_at: at };
    this.byKey.set(key, next);
    return copy(next);
  }

  public async listByChannel(channelId: string, page: Page): Promise<ChannelMember[]> {
    return paginate([...this.byKey.values()].filter((m) => m.channel_id === channelId).sort(oldestFirst), page).map(copy);
  }

  public async listByUser(userId: string): Promise<ChannelMember[]> {
    return [...this.byKey.values()].filter((m) => m.user_id === userId).sort(oldestFirst).map(copy);
  }

  public async channelIdsOfUser(userId: string): Promise<string[]> {
    return [...this.byKey.values()].filter((m) => m.user_id === userId).map((m) => m.channel_id);
  }

  public async userIdsOfChannel(channelId: string, limit: number, after = ''): Promise<string[]> {
    return [...this.byKey.values()]
      .filter((m) => m.channel_id === channelId && m.user_id > after)
      .map((m) => m.user_id)
      .sort()
      .slice(0, Math.max(0, limit));
  }
}
