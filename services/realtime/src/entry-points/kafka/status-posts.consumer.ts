import { Topics, type PostsEvent } from '@switchyard/contracts';
import type { BatchHandler, BusMessage, MessageHandler } from '@switchyard/event-bus';
import type { Statuses } from '../../domain/statuses/statuses';

/** The consumer group every replica shares for it: each post sets its author's status once, not once per replica. */
export const STATUS_POSTS_GROUP = 'realtime-statuses';

/** The author of a post made through `POST /posts` (source `api`, not a system post), else undefined. */
export function restPostAuthor(message: BusMessage): string | undefined {
  if (message.topic !== Topics.postsEvents) return undefined;
  const event = message.value as PostsEvent | undefined;
  if (event?.type !== 'post.created') return undefined;
  const payload = event.payload as { source?: unknown; post?: { user_id?: unknown; type?: unknown } };
  if (payload.source !== 'api' || typeof payload.post?.user_id !== 'string' || payload.post.user_id === '') return undefined;
  if (typeof payload.post.type === 'string' && payload.post.type.startsWith('system_')) return undefined;
  return payload.post.user_id;
}

/**
 * posts.events → statuses: a post made through `POST /posts` (source `api`) sets its author online unless
 * their status is manual (mattermost-wire-3.md §3.1); webhook, system and slash-command posts do not.
 * `batch` takes a partition's waiting messages at once (their authors in one status read); `single` is the
 * bus's one-at-a-time path (retries, dead letters).
 */
export function statusPostsConsumer(statuses: Pick<Statuses, 'posted'>): { single: MessageHandler; batch: BatchHandler } {
  return {
    single: async (message) => {
      const author = restPostAuthor(message);
      if (author !== undefined) await statuses.posted([author]);
    },
    batch: async (messages) => {
      const authors = messages.map(restPostAuthor).filter((id): id is string => id !== undefined);
      if (authors.length > 0) await statuses.posted(authors);
    },
  };
}
