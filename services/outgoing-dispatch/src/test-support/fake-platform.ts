import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { InternalPaths, PostsInternalPaths, type CreatePostCommandPayload, type InternalChannel, type InternalUser, type WirePost } from '@switchyard/contracts';
import { verifyServiceCredential } from '@switchyard/http-kit';
import { newId } from '@switchyard/ids';
import { defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const notFound = (res: ServerResponse, id: string): void => send(res, 404, { id, message: id, detailed_error: '', request_id: '', status_code: 404 });

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * users-bots' and posts' internal APIs as outgoing-dispatch calls them, over an in-memory world the test
 * arranges (teams with member roles, channels, channel members, users, stored posts).
 */
export class FakeWorld {
  public config: SystemConfig = defaultSystemConfig();
  public readonly teams = new Map<string, { name: string; members: Map<string, string> }>();
  public readonly channels = new Map<string, InternalChannel>();
  public readonly channelMembers = new Map<string, Map<string, string>>();
  public readonly users = new Map<string, InternalUser>();
  public readonly posts = new Map<string, WirePost>();
  public readonly postUpdates: { postId: string; body: unknown }[] = [];
  /** Every create call posts received (replies of outgoing hooks), in order, repeats included. */
  public readonly createdPosts: CreatePostCommandPayload[] = [];
  /** Uploaded files: id → uploader and delete_at (dialog file_ids). */
  public readonly files = new Map<string, { user_id: string; delete_at: number }>();
  /** When set, create calls answer this status with an AppError instead of storing (fault tests). */
  public createFailure: number | undefined;

  public constructor(private readonly secret: string) {}

  public team(name = `team${Math.random().toString(36).slice(2, 8)}`): string {
    const id = newId();
    this.teams.set(id, { name, members: new Map() });
    return id;
  }

  public user(username = `user${Math.random().toString(36).slice(2, 8)}`, options: { teamId?: string; teamRoles?: string; isBot?: boolean } = {}): InternalUser {
    const user: InternalUser = { id: newId(), username, roles: 'system_user', isBot: options.isBot ?? false, deleteAt: 0, firstName: '', lastName: '', nickname: '' };
    this.users.set(user.id, user);
    if (options.teamId) this.teams.get(options.teamId)?.members.set(user.id, options.teamRoles ?? 'team_user');
    return user;
  }

  public channel(teamId: string, type: InternalChannel['type'] = 'O', name = `chan${Math.random().toString(36).slice(2, 8)}`): InternalChannel {
    const channel: InternalChannel = { id: newId(), team_id: teamId, team_name: this.teams.get(teamId)?.name ?? '', type, name, display_name: name, creator_id: '', delete_at: 0 };
    this.channels.set(channel.id, channel);
    this.channelMembers.set(channel.id, new Map());
    return channel;
  }

  public joinChannel(channelId: string, userId: string, roles = 'channel_user'): void {
    this.channelMembers.get(channelId)?.set(userId, roles);
  }

  public post(channel: InternalChannel, userId: string, message: string, props: Record<string, unknown> = {}): WirePost {
    const now = Date.now();
    const post: WirePost = {
      id: newId(), create_at: now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, user_id: userId, channel_id: channel.id, root_id: '',
      original_id: '', message, type: props.attachments ? 'slack_attachment' : '', props, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null,
    };
    this.posts.set(post.id, post);
    return post;
  }

  public readonly usersBots: RequestListener = (req, res) => {
    void this.handleUsersBots(req, res).catch((error: unknown) => send(res, 500, { id: 'fake', message: String(error) }));
  };

  public readonly postsService: RequestListener = (req, res) => {
    void this.handlePosts(req, res).catch((error: unknown) => send(res, 500, { id: 'fake', message: String(error) }));
  };

  private async handleUsersBots(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (verifyServiceCredential({ method: req.method ?? '', target: req.url ?? '', headers: req.headers }, this.secret) !== 'outgoing-dispatch') return send(res, 401, { id: 'api.context.session_expired.app_error' });
    const url = req.url ?? '';
    if (req.method === 'GET' && url === InternalPaths.config) return send(res, 200, this.config);
    if (req.method === 'POST' && url === InternalPaths.usersByIds) {
      const { ids } = (await readBody(req)) as { ids: string[] };
      return send(res, 200, ids.flatMap((id) => (this.users.has(id) ? [this.users.get(id)] : [])));
    }
    if (req.method === 'POST' && url === InternalPaths.usersByUsernames) {
      const { usernames } = (await readBody(req)) as { usernames: string[] };
      return send(res, 200, [...this.users.values()].filter((u) => usernames.includes(u.username)));
    }
    const team = /^\/internal\/v1\/teams\/([a-z0-9]{26})$/.exec(url);
    if (req.method === 'GET' && team) {
      const found = this.teams.get(team[1] ?? '');
      return found ? send(res, 200, { id: team[1], name: found.name, display_name: found.name, type: 'O', delete_at: 0 }) : notFound(res, 'app.team.get.find.app_error');
    }
    const member = /^\/internal\/v1\/teams\/([^/]+)\/members\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && member) {
      const roles = this.teams.get(member[1] ?? '')?.members.get(member[2] ?? '');
      if (roles === undefined) return notFound(res, 'app.team.get_member.missing.app_error');
      return send(res, 200, { team_id: member[1], user_id: member[2], roles, delete_at: 0 });
    }
    return notFound(res, 'api.context.404.app_error');
  }

  private async handlePosts(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (verifyServiceCredential({ method: req.method ?? '', target: req.url ?? '', headers: req.headers }, this.secret) !== 'outgoing-dispatch') return send(res, 401, { id: 'api.context.session_expired.app_error' });
    const url = req.url ?? '';
    const member = /^\/internal\/v1\/channels\/([^/]+)\/members\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && member) {
      const roles = this.channelMembers.get(member[1] ?? '')?.get(member[2] ?? '');
      if (roles === undefined) return notFound(res, 'app.channel.get_member.missing.app_error');
      return send(res, 200, { channel_id: member[1], user_id: member[2], roles });
    }
    const byName = /^\/internal\/v1\/teams\/([^/]+)\/channels\/name\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && byName) {
      const found = [...this.channels.values()].find((c) => c.team_id === byName[1] && c.name === byName[2]);
      return found ? send(res, 200, found) : notFound(res, 'app.channel.get_by_name.missing.app_error');
    }
    const channel = /^\/internal\/v1\/channels\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && channel) {
      const found = this.channels.get(channel[1] ?? '');
      return found ? send(res, 200, found) : notFound(res, 'app.channel.get.existing.app_error');
    }
    if (req.method === 'POST' && url === PostsInternalPaths.fileOwners) {
      const { file_ids: ids } = (await readBody(req)) as { file_ids: string[] };
      return send(res, 200, { files: ids.flatMap((id) => { const f = this.files.get(id); return f ? [{ id, ...f }] : []; }) });
    }
    if (req.method === 'POST' && url === PostsInternalPaths.createPost) {
      const command = (await readBody(req)) as CreatePostCommandPayload;
      if (this.createFailure !== undefined) {
        const status = this.createFailure;
        return send(res, status, { id: 'fake.create_post.app_error', message: 'refused by the fake', detailed_error: '', request_id: '', status_code: status });
      }
      this.createdPosts.push(command);
      const existing = this.posts.get(command.post.id);
      if (existing) return send(res, 200, existing);
      const now = Date.now();
      const created: WirePost = {
        ...command.post, create_at: command.post.create_at ?? now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, original_id: '',
        props: { ...command.post.props }, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null,
      } as WirePost;
      this.posts.set(created.id, created);
      return send(res, 201, created);
    }
    const post = /^\/internal\/v1\/posts\/([^/]+)$/.exec(url);
    if (post) {
      const found = this.posts.get(post[1] ?? '');
      if (!found) return notFound(res, 'app.post.get.app_error');
      if (req.method === 'GET') return send(res, 200, { post: found, channel: this.channels.get(found.channel_id) });
      if (req.method === 'PUT') {
        const body = (await readBody(req)) as { message?: string; props?: Record<string, unknown> };
        this.postUpdates.push({ postId: found.id, body });
        const updated = { ...found, message: body.message ?? found.message, props: body.props ?? found.props, update_at: Date.now() };
        this.posts.set(found.id, updated);
        return send(res, 200, updated);
      }
    }
    return notFound(res, 'api.context.404.app_error');
  }
}
