import type { InternalChannel, InternalUser, PostSource } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import type { ChannelDirectory, CreateAck, HookFile, HookFiles, NewPost, PostCommandMeta, PostCommands, UserDirectory } from '../domain/ports';

/** Channels and memberships held in maps (what posts' internal API would answer). */
export class FakeChannelDirectory implements ChannelDirectory {
  public readonly channels = new Map<string, InternalChannel>();
  /** `${channelId}:${userId}` → channel roles */
  public readonly members = new Map<string, string>();
  public calls = 0;

  public add(channel: Partial<InternalChannel> & Pick<InternalChannel, 'team_id' | 'type' | 'name'>): InternalChannel {
    const full: InternalChannel = { id: newId(), team_name: 'team', display_name: channel.name, creator_id: '', delete_at: 0, ...channel };
    this.channels.set(full.id, full);
    return full;
  }

  public join(channelId: string, userId: string, roles = 'channel_user'): void {
    this.members.set(`${channelId}:${userId}`, roles);
  }

  public leave(channelId: string, userId: string): void {
    this.members.delete(`${channelId}:${userId}`);
  }

  public async channel(channelId: string): Promise<InternalChannel | undefined> {
    this.calls += 1;
    return this.channels.get(channelId);
  }

  public async channelByName(teamId: string, name: string): Promise<InternalChannel | undefined> {
    this.calls += 1;
    return [...this.channels.values()].find((c) => c.team_id === teamId && c.name === name.toLowerCase());
  }

  public async directChannel(userA: string, userB: string): Promise<InternalChannel> {
    this.calls += 1;
    const name = [userA, userB].sort().join('__');
    const existing = [...this.channels.values()].find((c) => c.type === 'D' && c.name === name);
    if (existing) return existing;
    const channel = this.add({ team_id: '', team_name: '', type: 'D', name });
    this.join(channel.id, userA);
    this.join(channel.id, userB);
    return channel;
  }

  public async memberRoles(channelId: string, userId: string): Promise<string | undefined> {
    this.calls += 1;
    return this.members.get(`${channelId}:${userId}`);
  }

  /** Posts posts would know (thread roots for webhook replies). */
  public readonly posts = new Map<string, { id: string; channel_id: string; root_id: string; delete_at: number }>();

  public addPost(channelId: string, rootId = '', deleteAt = 0): string {
    const id = newId();
    this.posts.set(id, { id, channel_id: channelId, root_id: rootId, delete_at: deleteAt });
    return id;
  }

  public async post(postId: string): Promise<{ id: string; channel_id: string; root_id: string; delete_at: number } | undefined> {
    this.calls += 1;
    return this.posts.get(postId);
  }
}

/** Users and team memberships held in maps (what users-bots' internal API would answer). */
export class FakeUserDirectory implements UserDirectory {
  public readonly users = new Map<string, InternalUser>();
  /** `${teamId}:${userId}` → team roles */
  public readonly teamMembers = new Map<string, string>();

  public add(username: string, options: { roles?: string; isBot?: boolean } = {}): InternalUser {
    const user: InternalUser = { id: newId(), username, roles: options.roles ?? 'system_user', isBot: options.isBot ?? false, deleteAt: 0, firstName: '', lastName: '', nickname: '' };
    this.users.set(user.id, user);
    return user;
  }

  public joinTeam(teamId: string, userId: string, roles = 'team_user'): void {
    this.teamMembers.set(`${teamId}:${userId}`, roles);
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    return ids.flatMap((id) => {
      const user = this.users.get(id);
      return user ? [user] : [];
    });
  }

  public async usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    return [...this.users.values()].filter((u) => usernames.includes(u.username));
  }

  public async teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    return this.teamMembers.get(`${teamId}:${userId}`);
  }

  /** As users-bots: the user holding the name (bot or not), else a new bot. */
  public async integrationSender(username: string): Promise<{ readonly userId: string; readonly isBot: boolean }> {
    const held = [...this.users.values()].find((u) => u.username === username) ?? this.add(username, { isBot: true });
    return { userId: held.id, isBot: held.isBot };
  }
}

export interface RecordedBatch {
  readonly posts: readonly NewPost[];
  readonly source: PostSource;
  readonly hookId?: string;
  readonly until: CreateAck;
}

/** Remembers every batch of create commands; `fail` makes the next calls throw (a bus outage). */
export class RecordingPostCommands implements PostCommands {
  public readonly batches: RecordedBatch[] = [];
  public fail: Error | undefined;

  public async create(posts: readonly NewPost[], meta: PostCommandMeta): Promise<void> {
    if (this.fail) throw this.fail;
    this.batches.push({ posts: structuredClone([...posts]), source: meta.source, until: meta.until, ...(meta.hookId ? { hookId: meta.hookId } : {}) });
  }

  public get posts(): NewPost[] {
    return this.batches.flatMap((b) => b.posts);
  }
}

/** HookFiles that records uploads and discards; `refuse` makes the next uploads fail (as posts would). */
export class RecordingHookFiles implements HookFiles {
  public readonly uploads: { channelId: string; userId: string; names: string[]; ids: string[]; contents: string[] }[] = [];
  public readonly discarded: { userId: string; ids: string[] }[] = [];
  public refuse: Error | undefined;

  public async upload(channelId: string, userId: string, files: readonly HookFile[], fileIds?: readonly string[]): Promise<string[]> {
    if (this.refuse) throw this.refuse;
    const ids = files.map((_, i) => fileIds?.[i] ?? newId());
    const contents: string[] = [];
    for (const file of files) {
      const chunks: Buffer[] = [];
      for await (const chunk of file.read()) chunks.push(chunk as Buffer);
      contents.push(Buffer.concat(chunks).toString('utf8'));
    }
    this.uploads.push({ channelId, userId, names: files.map((f) => f.name), ids, contents });
    return ids;
  }

  public async discard(userId: string, fileIds: readonly string[]): Promise<void> {
    this.discarded.push({ userId, ids: [...fileIds] });
  }
}
