import type { WirePost } from '@switchyard/contracts';

/** posts' internal API for a hook's own posts (README "Hook edits its posts"); posts checks the post is the hook's. */
export interface HookPosts {
  /** The edited post as stored; 404 `api.webhook.incoming.post_not_found.app_error` when it is not the hook's. */
  edit(hookId: string, postId: string, edit: { message: string; props: Record<string, unknown>; channelId?: string }): Promise<WirePost>;
  remove(hookId: string, postId: string, channelId?: string): Promise<void>;
}
