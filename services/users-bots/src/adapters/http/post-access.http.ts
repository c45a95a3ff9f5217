import { PostsInternalPaths, Services, type InternalPostView } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { PostAccess } from '../../domain/preferences/preference-ports';

/** posts' internal post and channel-member lookups (a flagged post must be one the caller can read). */
export class HttpPostAccess implements PostAccess {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.usersBots, secret);
  }

  public async channelOfPost(postId: string): Promise<string | undefined> {
    try {
      const view = await callJson<InternalPostView>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.post(postId), as: this.as });
      return view && view.post.delete_at === 0 ? view.channel.id : undefined;
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }

  public async isChannelMember(channelId: string, userId: string): Promise<boolean> {
    try {
      await callJson(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channelMember(channelId, userId), as: this.as });
      return true;
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return false;
      throw error;
    }
  }
}
