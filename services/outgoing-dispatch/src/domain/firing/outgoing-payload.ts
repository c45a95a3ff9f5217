import type { PostEventPayload } from '@switchyard/contracts';
import type { OutgoingHook } from '../entities';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** JSON exactly when the hook says `application/json`; otherwise a form (as the reference). */
export function requestContentType(hook: Pick<OutgoingHook, 'contentType'>): string {
  return hook.contentType === JSON_CONTENT_TYPE ? JSON_CONTENT_TYPE : FORM_CONTENT_TYPE;
}

/**
 * The request body sent to every callback URL (mattermost-wire.md §10): the reference's field names and
 * order; `timestamp` in ms for JSON and seconds in the form; `file_ids` comma-joined. `root_id` is added
 * (the integration description lists it). Bot hooks add `extra` (`channel_type`, `bot_user_id`).
 */
export function outgoingPayloadBody(hook: OutgoingHook, event: PostEventPayload, triggerWord: string, extra: Readonly<Record<string, string>> = {}): string {
  const post = event.post;
  const fields = {
    token: hook.token,
    team_id: event.team?.id ?? '',
    team_domain: event.team?.name ?? '',
    channel_id: event.channel.id,
    channel_name: event.channel.name,
    timestamp: post.create_at,
    user_id: event.author.id,
    user_name: event.author.username,
    post_id: post.id,
    text: post.message,
    trigger_word: triggerWord,
    file_ids: post.file_ids.join(','),
    root_id: post.root_id,
    ...extra,
  };
  if (requestContentType(hook) === JSON_CONTENT_TYPE) return JSON.stringify(fields);
  const form = new URLSearchParams();
  // Go's url.Values.Encode sorts the keys.
  const entries: [string, string][] = Object.entries({ ...fields, timestamp: String(Math.floor(post.create_at / 1000)) });
  for (const [key, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) form.append(key, value);
  return form.toString();
}
