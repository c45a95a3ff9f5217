import type { Channel, ChannelChanges, ChannelType } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import { onePost, type AcrossTeamsFilter, type ChannelRepository, type ChannelScope, type Page, type PostCounts } from '../../domain/ports';
import { compareIds, copy, paginate } from './memory-utils';

const nameKey = (teamId: string, name: string): string => `${teamId}\u0000${name}`;

export class MemoryChannelRepository implements ChannelRepository {
  private readonly byId = new Map<string, Channel>();
  private readonly idByName = new Map<string, string>();

  public async insert(channel: Channel): Promise<void> {
    if (this.byId.has(channel.id)) throw new DuplicateKeyError('id');
    const key = nameKey(channel.team_id, channel.name);
    if (this.idByName.has(key)) throw new DuplicateKeyError('name');
    this.byId.set(channel.id, copy(channel));
    this.idByName.set(key, channel.id);
  }

  public async findById(id: string): Promise<Channel | undefined> {
    const channel = this.byId.get(id);
    return channel ? copy(channel) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<Channel[]> {
    return ids.flatMap((id) => {
      const channel = this.byId.get(id);
      return channel ? [copy(channel)] : [];
    });
  }

  public async findScopes(ids: readonly string[]): Promise<ChannelScope[]> {
    return ids.flatMap((id) => {
      const c = this.byId.get(id);
      return c ? [{ id: c.id, team_id: c.team_id, name: c.name, type: c.type, delete_at: c.delete_at }] : [];
    });
  }

  public async findByName(teamId: string, name: string): Promise<Channel | undefined> {
    const id = this.idByName.get(nameKey(teamId, name));
    return id === undefined ? undefined : this.findById(id);
  }

  public async update(id: string, changes: ChannelChanges): Promise<Channel | undefined> {
    const channel = this.byId.get(id);
    if (!channel) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ChannelChanges;
    const next: Channel = { ...channel, ...copy(defined), id, team_id: channel.team_id, create_at: channel.create_at };
    if (next.name !== channel.name) {
      const key = nameKey(next.team_id, next.name);
      if (this.idByName.has(key)) throw new DuplicateKeyError('name');
      this.idByName.delete(nameKey(channel.team_id, channel.name));
      this.idByName.set(key, id);
    }
    this.byId.set(id, next);
    return copy(next);
  }

  public async listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]> {
    const matching = [...this.byId.values()]
      .filter((c) => c.team_id === teamId && types.includes(c.type) && (includeArchived || c.delete_at === 0))
      .sort((a, b) => compareIds(a.display_name, b.display_name) || compareIds(a.id, b.id));
    return paginate(matching, page).map(copy);
  }

  public async listAcrossTeams(filter: AcrossTeamsFilter, limit: number): Promise<Channel[]> {
    const archivedOk = (c: Channel): boolean => (filter.archived === 'all' ? true : filter.archived === 'live' ? c.delete_at === 0 : c.delete_at !== 0);
    return [...this.byId.values()]
      .filter((c) => c.team_id !== '' && filter.types.includes(c.type) && archivedOk(c) && (filter.teamIds === undefined || filter.teamIds.includes(c.team_id)))
      .sort((a, b) => (a.display_name < b.display_name ? -1 : a.display_name > b.display_name ? 1 : compareIds(a.id, b.id)))
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  public async recordPost(id: string, at: number, root: boolean): Promise<void> {
    return this.recordPosts(id, onePost(at, root));
  }

  public async recordPosts(id: string, counts: PostCounts): Promise<void> {
    const c = this.byId.get(id);
    if (!c || counts.posts <= 0) return;
    this.byId.set(id, {
      ...c,
      last_post_at: Math.max(c.last_post_at, counts.lastPostAt),
      total_msg_count: c.total_msg_count + counts.posts,
      ...(counts.roots > 0 ? { last_root_post_at: Math.max(c.last_root_post_at, counts.lastRootPostAt), total_msg_count_root: c.total_msg_count_root + counts.roots } : {}),
    });
  }
}
