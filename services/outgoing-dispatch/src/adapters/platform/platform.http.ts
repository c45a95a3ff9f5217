import { InternalPaths, PostsInternalPaths, Services, type InternalChannel, type InternalPostView, type InternalUser, type WirePost } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, internalCallHeaders, type ServiceTransport } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import type { Platform } from '../../domain/ports';

const notFound = (error: unknown): boolean => isAppError(error) && (error.statusCode === 404 || error.statusCode === 400);

/** users-bots' and posts' internal APIs through the service transport (sockets or in-process). */
export class TransportPlatform implements Platform {
  private readonly headers: Record<string, string>;

  public constructor(private readonly transport: ServiceTransport, internalSecret: string) {
    this.headers = internalCallHeaders(internalSecret);
  }

  public async teamRoles(teamId: string, userId: string): Promise<string> {
    if (!isValidId(teamId) || !isValidId(userId)) return '';
    try {
      const member = await callJson<{ roles?: string; delete_at?: number }>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${teamId}/members/${userId}`,
        headers: this.headers,
      });
      return (member.delete_at ?? 0) === 0 ? (member.roles ?? '') : '';
    } catch (error) {
      if (notFound(error)) return '';
      throw error;
    }
  }

  public async channel(channelId: string): Promise<InternalChannel | undefined> {
    if (!isValidId(channelId)) return undefined;
    return this.optional(() => callJson<InternalChannel>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channel(channelId), headers: this.headers }));
  }

  public async channelRoles(channelId: string, userId: string): Promise<string | undefined> {
    const member = await this.optional(() =>
      callJson<{ roles?: string }>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channelMember(channelId, userId), headers: this.headers }),
    );
    return member ? (member.roles ?? '') : undefined;
  }

  public async users(ids: readonly string[]): Promise<InternalUser[]> {
    if (ids.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, headers: this.headers, body: { ids } });
  }

  public async post(postId: string): Promise<InternalPostView | undefined> {
    return this.optional(() => callJson<InternalPostView>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.post(postId), headers: this.headers }));
  }

  public async updatePost(postId: string, update: { message?: string; props?: Record<string, unknown> }): Promise<WirePost> {
    return callJson<WirePost>(this.transport, Services.posts, { method: 'PUT', path: PostsInternalPaths.updatePost(postId), headers: this.headers, body: update });
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
