import { Topics, type PostsEvent } from '@switchyard/contracts';
import type { BusMessage, MessageHandler } from '@switchyard/event-bus';
import type { Statuses } from '../../domain/statuses/statuses';

/** The consumer group every replica shares for it: each post sets its author's status once, not once per replica. */
export const STATUS_POSTS_GROUP = 'realtime-statuses';

/**
 * posts.events → statuses: a post made through `POST /posts` (source `api`) sets its author online unless
 * their status is manual (mattermost-wire-3.md §3.1); webhook, system and slash-command posts do not.
 */
export function statusPostsConsumer(statuses: Pick<Statuses, 'posted'>): MessageHandler {
  return async (message: BusMessage) => {
    if (message.topic !== Topics.postsEvents) return;
    const event = message.value as PostsEvent | undefined;
    if (event?.type !== 'post.created') return;
    const payload = event.payload as { source?: unknown; post?: { user_id?: unknown; type?: unknown } };
    if (payload.source !== 'api' || typeof payload.post?.user_id !== 'string' || payload.post.user_id === '') return;
    if (typeof payload.post.type === 'string' && payload.post.type.startsWith('system_')) return;
    await statuses.posted(payload.post.user_id);
  };
}
