import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { NewPost, PostCommandMeta, PostCommands } from '../../domain/ports';
import type { StoredPostsWatch } from './stored-posts-watch';

/**
 * `post.create` commands on posts.commands, keyed by channel id (one partition per channel keeps split
 * parts in order). The envelope id is the post id, so a retried publish is recognisably the same command.
 * `until: 'stored'` then waits for posts' answer to every command (`watch`, fed by posts.events).
 */
export class BusPostCommands implements PostCommands {
  public constructor(
    private readonly bus: EventPublisher,
    private readonly watch: StoredPostsWatch,
  ) {}

  public async create(posts: readonly NewPost[], meta: PostCommandMeta): Promise<void> {
    if (posts.length === 0) return;
    const messages = posts.map((post) => {
      const payload: CreatePostCommandPayload = {
        post: {
          id: post.id,
          channel_id: post.channel_id,
          user_id: post.user_id,
          message: post.message,
          type: post.type,
          props: post.props,
          root_id: post.root_id,
          create_at: post.create_at,
          ...(post.priority ? { priority: post.priority } : {}),
          ...(post.file_ids && post.file_ids.length > 0 ? { file_ids: post.file_ids } : {}),
        },
        source: meta.source,
        ...(meta.hookId ? { hook_id: meta.hookId } : {}),
        ...(meta.requestId ? { request_id: meta.requestId } : {}),
      };
      return { key: post.channel_id, value: envelope('post.create', payload, 1, post.id) };
    });
    const pending = meta.until === 'stored' ? this.watch.expect(posts.map((p) => p.id)) : undefined;
    try {
      await this.bus.publish(Topics.postsCommands, messages);
    } catch (error) {
      pending?.cancel();
      throw error;
    }
    await pending?.stored;
  }
}
