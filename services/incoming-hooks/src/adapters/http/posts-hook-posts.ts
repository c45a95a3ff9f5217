import { Services, type WirePost } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { HookPosts } from '../../domain/hook-posts/hook-posts.port';

const path = (hookId: string, postId: string): string => `/internal/v1/hooks/${encodeURIComponent(hookId)}/posts/${encodeURIComponent(postId)}`;

/** A hook's own posts through posts' internal API (`/internal/v1/hooks/{hook}/posts/{post}`). */
export class PostsHookPosts implements HookPosts {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.incomingHooks, secret);
  }

  public edit(hookId: string, postId: string, edit: { message: string; props: Record<string, unknown>; channelId?: string }): Promise<WirePost> {
    const body = { message: edit.message, props: edit.props, ...(edit.channelId ? { channel_id: edit.channelId } : {}) };
    return callJson<WirePost>(this.transport, Services.posts, { method: 'PUT', path: path(hookId, postId), as: this.as, body });
  }

  public async remove(hookId: string, postId: string, channelId?: string): Promise<void> {
    const query = channelId ? `?channel_id=${encodeURIComponent(channelId)}` : '';
    await callJson<unknown>(this.transport, Services.posts, { method: 'DELETE', path: `${path(hookId, postId)}${query}`, as: this.as });
  }
}
