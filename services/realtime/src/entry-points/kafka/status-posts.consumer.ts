import { Topics, type PostsEvent } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import type { Statuses } from '../../domain/statuses/statuses';

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
 * posts.events → statuses, inside every replica's own consumer (no group of its own: ADR 0038): a post made
 * through `POST /posts` (source `api`) sets its author online unless their status is manual
 * (mattermost-wire-3.md §3.1); webhook, system and slash-command posts do not. Only the replica that
 * `leads()` applies it, so each post counts once. The status write does not hold the event stream: authors
 * seen while one `posted` call is running go together in the next (no timer), and a failure is reported to
 * `onError`, not retried (the author's next post or activity sets the status again).
 */
export function statusPostsTap(statuses: Pick<Statuses, 'posted'>, leads: () => boolean, onError: (error: unknown) => void): (message: BusMessage) => void {
  let waiting: string[] = [];
  let running = false;
  const run = (authors: string[]): void => {
    running = true;
    statuses
      .posted(authors)
      .catch(onError)
      .finally(() => {
        running = false;
        const next = waiting;
        waiting = [];
        if (next.length > 0) run(next);
      });
  };
  return (message) => {
    const author = restPostAuthor(message);
    if (author === undefined || !leads()) return;
    if (running) waiting.push(author);
    else run([author]);
  };
}
