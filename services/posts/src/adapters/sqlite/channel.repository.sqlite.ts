import { definedChanges, fromDoc, fromDocs, inKeyOrder, jsonList, pageWindow, type DocRow, type SqliteStore } from '@switchyard/sqlite-kit';
import type { Channel, ChannelChanges, ChannelType } from '../../domain/entities';
import { onePost, type AcrossTeamsFilter, type ChannelRepository, type ChannelScope, type Page, type PostCounts } from '../../domain/ports';
import { mapDuplicates } from './sqlite-support';

const UNIQUE_KEYS = { id: 'id', 'team_id,name': 'name' };

function columns(c: Channel): unknown[] {
  return [c.id, c.team_id, c.name, c.type, c.display_name, c.delete_at, JSON.stringify(c)];
}

export class SqliteChannelRepository implements ChannelRepository {
  private readonly insertRow;
  private readonly replaceRow;
  private readonly countPost;
  private readonly countRootPost;
  private readonly byId;
  private readonly byIds;
  private readonly scopes;
  private readonly byName;
  private readonly byTeam;
  private readonly byTeamLive;

  public constructor(private readonly store: SqliteStore) {
    const db = store.db;
    this.insertRow = db.prepare('INSERT INTO p_channels (id, team_id, name, type, display_name, delete_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.replaceRow = db.prepare('UPDATE p_channels SET id = ?, team_id = ?, name = ?, type = ?, display_name = ?, delete_at = ?, doc = ? WHERE id = ?');
    // Only counters in the document change (no indexed column): one statement, no read, no JSON in JS.
    this.countPost = db.prepare(
      "UPDATE p_channels SET doc = json_set(doc, '$.last_post_at', max(json_extract(doc, '$.last_post_at'), CAST(@at AS INTEGER)), '$.total_msg_count', json_extract(doc, '$.total_msg_count') + @posts) WHERE id = @id",
    );
    this.countRootPost = db.prepare(
      "UPDATE p_channels SET doc = json_set(doc, '$.last_post_at', max(json_extract(doc, '$.last_post_at'), CAST(@at AS INTEGER)), '$.total_msg_count', json_extract(doc, '$.total_msg_count') + @posts, " +
        "'$.last_root_post_at', max(json_extract(doc, '$.last_root_post_at'), CAST(@rootAt AS INTEGER)), '$.total_msg_count_root', json_extract(doc, '$.total_msg_count_root') + @roots) WHERE id = @id",
    );
    this.byId = db.prepare<[string], DocRow>('SELECT doc FROM p_channels WHERE id = ?');
    this.byIds = db.prepare<[string], DocRow & { k: string }>('SELECT id AS k, doc FROM p_channels WHERE id IN (SELECT value FROM json_each(?))');
    this.scopes = db.prepare<[string], ChannelScope>('SELECT id, team_id, name, type, delete_at FROM p_channels WHERE id IN (SELECT value FROM json_each(?))');
    this.byName = db.prepare<[string, string], DocRow>('SELECT doc FROM p_channels WHERE team_id = ? AND name = ?');
    this.byTeam = db.prepare<[string, string, number, number], DocRow>(
      'SELECT doc FROM p_channels WHERE team_id = ? AND type IN (SELECT value FROM json_each(?)) ORDER BY display_name, id LIMIT ? OFFSET ?',
    );
    this.byTeamLive = db.prepare<[string, string, number, number], DocRow>(
      'SELECT doc FROM p_channels WHERE team_id = ? AND type IN (SELECT value FROM json_each(?)) AND delete_at = 0 ORDER BY display_name, id LIMIT ? OFFSET ?',
    );
  }

  public async insert(channel: Channel): Promise<void> {
    await this.store.writeOne(() => mapDuplicates(UNIQUE_KEYS, () => this.insertRow.run(...columns(channel))));
  }

  public async findById(id: string): Promise<Channel | undefined> {
    return fromDoc<Channel>(this.byId.get(id));
  }

  public async findByIds(ids: readonly string[]): Promise<Channel[]> {
    if (ids.length === 0) return [];
    return inKeyOrder<Channel>(ids, this.byIds.all(jsonList(ids)));
  }

  public async findScopes(ids: readonly string[]): Promise<ChannelScope[]> {
    return ids.length === 0 ? [] : this.scopes.all(jsonList(ids));
  }

  public async findByName(teamId: string, name: string): Promise<Channel | undefined> {
    return fromDoc<Channel>(this.byName.get(teamId, name));
  }

  public async update(id: string, changes: ChannelChanges): Promise<Channel | undefined> {
    return this.store.writeOne(() => {
      const current = fromDoc<Channel>(this.byId.get(id));
      if (!current) return undefined;
      const next: Channel = { ...current, ...definedChanges(changes, ['id', 'team_id', 'create_at']), id, team_id: current.team_id, create_at: current.create_at };
      mapDuplicates(UNIQUE_KEYS, () => this.replaceRow.run(...columns(next), id));
      return next;
    });
  }

  public async listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]> {
    const window = pageWindow(page);
    if (!window || types.length === 0) return [];
    const statement = includeArchived ? this.byTeam : this.byTeamLive;
    return fromDocs<Channel>(statement.all(teamId, jsonList(types), window.limit, window.offset));
  }

  public async listAcrossTeams(filter: AcrossTeamsFilter, limit: number): Promise<Channel[]> {
    if (filter.types.length === 0 || limit <= 0 || filter.teamIds?.length === 0) return [];
    const archived = { live: ' AND delete_at = 0', archived: ' AND delete_at <> 0', all: '' }[filter.archived];
    const teams = filter.teamIds ? ' AND team_id IN (SELECT value FROM json_each(?))' : '';
    const sql = `SELECT doc FROM p_channels WHERE team_id <> '' AND type IN (SELECT value FROM json_each(?))${archived}${teams} ORDER BY display_name, id LIMIT ?`;
    const params: unknown[] = [jsonList(filter.types), ...(filter.teamIds ? [jsonList(filter.teamIds)] : []), limit];
    return fromDocs<Channel>(this.store.db.prepare<unknown[], DocRow>(sql).all(...params));
  }

  public async recordPost(id: string, at: number, root: boolean): Promise<void> {
    return this.recordPosts(id, onePost(at, root));
  }

  public async recordPosts(id: string, counts: PostCounts): Promise<void> {
    if (counts.posts <= 0) return;
    const { posts, roots, lastPostAt: at, lastRootPostAt: rootAt } = counts;
    await this.store.writeOne(() => (roots > 0 ? this.countRootPost.run({ at, posts, roots, rootAt, id }) : this.countPost.run({ at, posts, id })));
  }
}
