import { mentionedNames } from '@switchyard/contracts';
import type { StoredPost } from '../entities';
import { mentionTextRuns } from '../channels/mention-text-runs';

/**
 * Whether a post mentions the user as the reference's countThreadMentions reads it (the user assumed online,
 * channel mentions always allowed): `@username` (case-insensitive), `@channel`, `@all` or `@here`, in the
 * Markdown text of the message or its attachments (mention-text-runs.ts: never inside code).
 */
export async function mentionsUser(post: Pick<StoredPost, 'message' | 'props'>, username: string): Promise<boolean> {
  const names = new Set<string>();
  for (const text of await mentionTextRuns(post)) for (const name of mentionedNames(text)) names.add(name);
  return (username !== '' && names.has(username.toLowerCase())) || names.has('channel') || names.has('all') || names.has('here');
}
