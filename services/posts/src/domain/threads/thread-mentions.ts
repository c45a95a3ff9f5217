import { mentionedNames, type UserMentionSettings } from '@switchyard/contracts';
import type { StoredPost } from '../entities';
import { keywordMentions, keywordsOf } from '../channels/mention-keywords';
import { mentionTextRuns } from '../channels/mention-text-runs';

/** The user a thread's replies are read for: their username and mention settings (undefined: the defaults). */
export interface ThreadReader {
  readonly id: string;
  readonly username: string;
  readonly settings?: UserMentionSettings;
}

/**
 * Whether a post mentions the user as the reference's countThreadMentions reads it (MentionKeywords.AddUser for that user
 * alone, assumed online, channel mentions allowed): `@username` (case-insensitive), their mention keys and first name, and
 * `@channel`, `@all` or `@here` unless they turned channel-wide mentions off, in the Markdown text of the message or its
 * attachments (mention-text-runs.ts: never inside code).
 */
export async function mentionsUser(post: Pick<StoredPost, 'message' | 'props'>, reader: ThreadReader): Promise<boolean> {
  const texts = await mentionTextRuns(post);
  const names = new Set<string>();
  for (const text of texts) for (const name of mentionedNames(text)) names.add(name);
  if (reader.username !== '' && names.has(reader.username.toLowerCase())) return true;
  if ((reader.settings?.channel ?? true) && (names.has('channel') || names.has('all') || names.has('here'))) return true;
  return reader.settings !== undefined && keywordMentions(texts, keywordsOf(new Map([[reader.id, reader.settings]]))).size > 0;
}
