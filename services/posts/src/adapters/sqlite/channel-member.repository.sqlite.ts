import { fromDoc, fromDocs, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { ChannelMember } from '../../domain/entities';
import type { ChannelMemberRepository, MemberViewChanges, MentionTargets, Page } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { 'channel_id,user_id': 'member' };

export class SqliteChannelMemberRepository implements ChannelMemberRepository {
  private readonly insertRow;
  private readonly one;
  private readonly deleteRow;
  private readonly replaceDoc;
  private readonly byChannel;
  private readonly byUser;
  private readonly idsByUser;
  private readonly idsByChannel;
  private readonly mentionNamed;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO p_channel_members (channel_id, user_id, create_at, doc) VALUES (?, ?, ?, ?)');
    this.one = db.prepare<[string, string], DocRow>('SELECT doc FROM p_channel_members WHERE channel_id = ? AND user_id = ?');
    this.replaceDoc = db.prepare('UPDATE p_channel_members SET doc = ? WHERE channel_id = ? AND user_id = ?');
    this.deleteRow = db.prepare('DELETE FROM p_channel_members WHERE channel_id = ? AND user_id = ?');
    this.byChannel = db.prepare<[string, number, number], DocRow>('SELECT doc FROM p_channel_members WHERE channel_id = ? ORDER BY create_at, user_id LIMIT ? OFFSET ?');
    this.byUser = db.prepare<[string], DocRow>('SELECT doc FROM p_channel_members WHERE user_id = ? ORDER BY create_at, user_id');
    // One UPDATE per post's mentions: the counters change inside the stored document (json_set), no read or re-serialising in JS.
    const counted = "doc = json_set(doc, '$.mention_count', coalesce(json_extract(doc, '$.mention_count'), 0) + 1, '$.mention_count_root', coalesce(json_extract(doc, '$.mention_count_root'), 0) + ?, '$.urgent_mention_count', coalesce(json_extract(doc, '$.urgent_mention_count'), 0) + ?, '$.last_update_at', ?)";
    this.mentionNamed = db.prepare<[number, number, number, string, string]>(`UPDATE p_channel_members SET ${counted} WHERE channel_id = ? AND user_id IN (SELECT value FROM json_each(?))`);
    this.idsByUser = db.prepare<[string], string>('SELECT channel_id FROM p_channel_members WHERE user_id = ?').pluck();
    this.idsByChannel = db.prepare<[string, string, number], string>('SELECT user_id FROM p_channel_members WHERE channel_id = ? AND user_id > ? ORDER BY user_id LIMIT ?').pluck();
  }

  public async insert(member: ChannelMember): Promise<void> {
    await this.store.write(() =>
      mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(member.channel_id, member.user_id, member.create_at, JSON.stringify(member))),
    );
  }

  public async find(channelId: string, userId: string): Promise<ChannelMember | undefined> {
    return fromDoc<ChannelMember>(this.one.get(channelId, userId));
  }

  public async delete(channelId: string, userId: string): Promise<boolean> {
    return this.store.write(() => this.deleteRow.run(channelId, userId).changes === 1);
  }

  public async update(channelId: string, userId: string, changes: MemberViewChanges): Promise<ChannelMember | undefined> {
    return this.store.write(() => {
      const current = fromDoc<ChannelMember>(this.one.get(channelId, userId));
      if (!current) return undefined;
      const next = { ...current, ...changes };
      this.replaceDoc.run(JSON.stringify(next), channelId, userId);
      return next;
    });
  }

  public async incrementMentions(channelId: string, targets: MentionTargets, root: boolean, at: number, urgent = false): Promise<void> {
    if (targets.userIds.length === 0) return;
    await this.store.write(() => {
      this.mentionNamed.run(root ? 1 : 0, urgent ? 1 : 0, at, channelId, JSON.stringify(targets.userIds));
    });
  }

  /** Read and rewrite in one write transaction: concurrent updates of different keys all stay. */
  public async updateNotifyProps(channelId: string, userId: string, props: Readonly<Record<string, string>>, at: number): Promise<ChannelMember | undefined> {
    return this.store.write(() => {
      const current = fromDoc<ChannelMember>(this.one.get(channelId, userId));
      if (!current) return undefined;
      const next = { ...current, notify_props: { ...current.notify_props, ...props }, last_update_at: at };
      this.replaceDoc.run(JSON.stringify(next), channelId, userId);
      return next;
    });
  }

  public async listByChannel(channelId: string, page: Page): Promise<ChannelMember[]> {
    const window = pageWindow(page);
    return window ? fromDocs<ChannelMember>(this.byChannel.all(channelId, window.limit, window.offset)) : [];
  }

  public async listByUser(userId: string): Promise<ChannelMember[]> {
    return fromDocs<ChannelMember>(this.byUser.all(userId));
  }

  public async channelIdsOfUser(userId: string): Promise<string[]> {
    return this.idsByUser.all(userId);
  }

  /** Covered by the (channel_id, user_id) unique index. */
  public async userIdsOfChannel(channelId: string, limit: number, after = ''): Promise<string[]> {
    return limit <= 0 ? [] : this.idsByChannel.all(channelId, after, limit);
  }
}
