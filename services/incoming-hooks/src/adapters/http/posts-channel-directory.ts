import { PostsInternalPaths, Services, type InternalChannel, type InternalChannelMember, type InternalPostView, type WirePost } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { ChannelDirectory } from '../../domain/ports';

const notFound = (error: unknown): boolean => isAppError(error) && error.statusCode === 404;

/** Channels through posts' internal API. */
export class PostsChannelDirectory implements ChannelDirectory {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.incomingHooks, secret);
  }

  public async channel(channelId: string): Promise<InternalChannel | undefined> {
    return this.get<InternalChannel>(PostsInternalPaths.channel(channelId));
  }

  public async channelByName(teamId: string, name: string): Promise<InternalChannel | undefined> {
    return this.get<InternalChannel>(PostsInternalPaths.channelByName(teamId, name));
  }

  public async directChannel(userA: string, userB: string): Promise<InternalChannel> {
    return callJson<InternalChannel>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.directChannel, as: this.as, body: { user_ids: [userA, userB] } });
  }

  public async memberRoles(channelId: string, userId: string): Promise<string | undefined> {
    const member = await this.get<InternalChannelMember>(PostsInternalPaths.channelMember(channelId, userId));
    if (!member) return undefined;
    return member.roles && member.roles.trim() !== '' ? member.roles : 'channel_user';
  }

  public async post(postId: string): Promise<Pick<WirePost, 'id' | 'channel_id' | 'root_id' | 'delete_at'> | undefined> {
    return (await this.get<InternalPostView>(PostsInternalPaths.post(postId)))?.post;
  }

  private async get<T>(path: string): Promise<T | undefined> {
    try {
      return await callJson<T>(this.transport, Services.posts, { method: 'GET', path, as: this.as });
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }
}
