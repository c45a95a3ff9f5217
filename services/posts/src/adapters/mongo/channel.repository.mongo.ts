import type { Model } from '@switchyard/mongo-kit';
import type { Channel, ChannelChanges, ChannelType } from '../../domain/entities';
import { onePost, type AcrossTeamsFilter, type ChannelRepository, type ChannelScope, type Page, type PostCounts } from '../../domain/ports';
import { fromChannelDocument, toChannelDocument, type ChannelDocument } from './channel.schema.mongo';
import { asDomainError, byId, pageWindow, setOf } from './mongo-support';

const UNIQUE_KEYS = { _id: 'id', team_id: 'name', name: 'name' } as const;

export class MongoChannelRepository implements ChannelRepository {
  public constructor(private readonly model: Model<ChannelDocument>) {}

  public async insert(channel: Channel): Promise<void> {
    try {
      await this.model.create(toChannelDocument(channel));
    } catch (error) {
      throw asDomainError(error, UNIQUE_KEYS);
    }
  }

  /** The driver's collection directly (a lookup per created post): see MongoPostRepository. */
  public async findById(id: string): Promise<Channel | undefined> {
    const doc = (await this.model.collection.findOne(byId(id))) as ChannelDocument | null;
    return doc ? fromChannelDocument(doc) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<Channel[]> {
    if (ids.length === 0) return [];
    const docs = await this.model.find({ _id: { $in: [...ids] } }).lean<ChannelDocument[]>();
    const byId = new Map(docs.map((d) => [d._id, fromChannelDocument(d)] as const));
    return ids.flatMap((id) => {
      const channel = byId.get(id);
      return channel ? [channel] : [];
    });
  }

  public async findScopes(ids: readonly string[]): Promise<ChannelScope[]> {
    if (ids.length === 0) return [];
    const docs = await this.model.find({ _id: { $in: [...ids] } }, { team_id: 1, name: 1, type: 1, delete_at: 1 }).lean<(Omit<ChannelScope, 'id'> & { _id: string })[]>();
    return docs.map((d) => ({ id: d._id, team_id: d.team_id, name: d.name, type: d.type, delete_at: d.delete_at }));
  }

  public async findByName(teamId: string, name: string): Promise<Channel | undefined> {
    const doc = await this.model.findOne({ team_id: teamId, name }).lean<ChannelDocument>();
    return doc ? fromChannelDocument(doc) : undefined;
  }

  public async update(id: string, changes: ChannelChanges): Promise<Channel | undefined> {
    const set = setOf(changes, ['id', 'team_id', 'create_at']);
    if (Object.keys(set).length === 0) return this.findById(id);
    try {
      const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<ChannelDocument>();
      return doc ? fromChannelDocument(doc) : undefined;
    } catch (error) {
      throw asDomainError(error, UNIQUE_KEYS);
    }
  }

  public async listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]> {
    const window = pageWindow(page);
    if (!window) return [];
    const filter: Record<string, unknown> = { team_id: teamId, type: { $in: [...types] } };
    if (!includeArchived) filter.delete_at = 0;
    const docs = await this.model.find(filter).sort({ display_name: 1, _id: 1 }).skip(window.skip).limit(window.limit).lean<ChannelDocument[]>();
    return docs.map(fromChannelDocument);
  }

  public async listAcrossTeams(filter: AcrossTeamsFilter, limit: number): Promise<Channel[]> {
    if (filter.types.length === 0 || limit <= 0 || filter.teamIds?.length === 0) return [];
    const query: Record<string, unknown> = { type: { $in: [...filter.types] }, team_id: filter.teamIds ? { $in: [...filter.teamIds] } : { $ne: '' } };
    if (filter.archived === 'live') query.delete_at = 0;
    if (filter.archived === 'archived') query.delete_at = { $ne: 0 };
    const docs = await this.model.find(query).sort({ display_name: 1, _id: 1 }).limit(limit).lean<ChannelDocument[]>();
    return docs.map(fromChannelDocument);
  }

  public async recordPost(id: string, at: number, root: boolean): Promise<void> {
    return this.recordPosts(id, onePost(at, root));
  }

  public async recordPosts(id: string, counts: PostCounts): Promise<void> {
    if (counts.posts <= 0) return;
    const inc: Record<string, number> = { total_msg_count: counts.posts };
    const max: Record<string, number> = { last_post_at: counts.lastPostAt };
    if (counts.roots > 0) {
      inc.total_msg_count_root = counts.roots;
      max.last_root_post_at = counts.lastRootPostAt;
    }
    await this.model.collection.updateOne(byId(id), { $inc: inc, $max: max });
  }
}
