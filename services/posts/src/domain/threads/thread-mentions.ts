import { postMentionedNames } from '@switchyard/contracts';
import type { StoredPost } from '../entities';

/**
 * Whether a post mentions the user as the reference's countThreadMentions reads it (the user assumed online,
 * channel mentions always allowed): `@username` (case-insensitive), `@channel`, `@all` or `@here`, in the
 * message or its attachments' texts.
 */
export function mentionsUser(post: Pick<StoredPost, 'message' | 'props'>, username: string): boolean {
  const names = postMentionedNames(post);
  return (username !== '' && names.has(username.toLowerCase())) || names.has('channel') || names.has('all') || names.has('here');
}
