import { InternalPaths, PostsInternalPaths, Services, type CreatePostCommandPayload, type InternalBot, type InternalChannel, type InternalFileOwner, type InternalTeam, type InternalPostView, type InternalUser, type WirePost } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import type { Platform, PostCommands } from '../../domain/ports';

const notFound = (error: unknown): boolean => isAppError(error) && (error.statusCode === 404 || error.statusCode === 400);

/** users-bots' and posts' internal APIs through the service transport (sockets or in-process). */
export class TransportPlatform implements Platform {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, internalSecret: Keys) {
    this.as = serviceCredential(Services.outgoingDispatch, internalSecret);
  }

  public async team(teamId: string): Promise<InternalTeam | undefined> {
    if (!isValidId(teamId)) return undefined;
    return this.optional(() => callJson<InternalTeam>(this.transport, Services.usersBots, { method: 'GET', path: InternalPaths.team(teamId), as: this.as }));
  }

  public async teamRoles(teamId: string, userId: string): Promise<string> {
    if (!isValidId(teamId) || !isValidId(userId)) return '';
    try {
      const member = await callJson<{ roles?: string; delete_at?: number }>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${teamId}/members/${userId}`,
        as: this.as,
      });
      return (member.delete_at ?? 0) === 0 ? (member.roles ?? '') : '';
    } catch (error) {
      if (notFound(error)) return '';
      throw error;
    }
  }

  public async channel(channelId: string): Promise<InternalChannel | undefined> {
    if (!isValidId(channelId)) return undefined;
    return this.optional(() => callJson<InternalChannel>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channel(channelId), as: this.as }));
  }

  public async channelRoles(channelId: string, userId: string): Promise<string | undefined> {
    const member = await this.optional(() =>
      callJson<{ roles?: string }>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channelMember(channelId, userId), as: this.as }),
    );
    return member ? (member.roles ?? '') : undefined;
  }

  public async users(ids: readonly string[]): Promise<InternalUser[]> {
    if (ids.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, as: this.as, body: { ids } });
  }

  public async directChannel(userA: string, userB: string): Promise<InternalChannel> {
    return callJson<InternalChannel>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.directChannel, as: this.as, body: { user_ids: [userA, userB] } });
  }

  public async fileOwners(fileIds: readonly string[]): Promise<InternalFileOwner[]> {
    if (fileIds.length === 0) return [];
    const answer = await callJson<{ files: InternalFileOwner[] }>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.fileOwners, as: this.as, body: { file_ids: fileIds } });
    return answer.files;
  }

  public async bot(botUserId: string): Promise<InternalBot | undefined> {
    if (!isValidId(botUserId)) return undefined;
    return this.optional(() => callJson<InternalBot>(this.transport, Services.usersBots, { method: 'GET', path: InternalPaths.bot(botUserId), as: this.as }));
  }

  public async usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    if (usernames.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByUsernames, as: this.as, body: { usernames } });
  }

  public async channelByName(teamId: string, name: string): Promise<InternalChannel | undefined> {
    if (!isValidId(teamId)) return undefined;
    return this.optional(() => callJson<InternalChannel>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channelByName(teamId, name), as: this.as }));
  }

  public async post(postId: string): Promise<InternalPostView | undefined> {
    return this.optional(() => callJson<InternalPostView>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.post(postId), as: this.as }));
  }

  public async updatePost(postId: string, update: { message?: string; props?: Record<string, unknown> }): Promise<WirePost> {
    return callJson<WirePost>(this.transport, Services.posts, { method: 'PUT', path: PostsInternalPaths.updatePost(postId), as: this.as, body: update });
  }

  private async optional<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }
}

/**
 * Replies of outgoing hooks through posts' internal create (the same use case as a `post.create` on
 * posts.commands, idempotent by post id): each call returns once the post is stored, so a delivery is
 * recorded as delivered only when its reply is readable through the API. Parts go one after the other,
 * in order; a refusal or a failure throws (AppError) and stops the rest.
 */
export class TransportPostCommands implements PostCommands {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, internalSecret: Keys) {
    this.as = serviceCredential(Services.outgoingDispatch, internalSecret);
  }

  public async createPosts(commands: readonly CreatePostCommandPayload[]): Promise<void> {
    for (const command of commands) {
      await callJson<WirePost>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.createPost, as: this.as, body: command });
    }
  }
}
