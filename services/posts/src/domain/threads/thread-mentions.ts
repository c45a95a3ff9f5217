import { mentionedNames, type UserMentionSettings } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';
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

/** The other user of a direct channel named `a__b` ('' in a self-DM), as the reference's GetOtherUserIdForDM. */
function otherUserOfDirect(channelName: string, userId: string): string {
  const [first = '', second = ''] = channelName.split('__');
  if (first === second) return '';
  return first === userId ? second : first;
}

/**
 * The reader's unread mentions among a thread's replies created at or after `timestamp`, as the newest reference's
 * countThreadMentions (server/channels/app/post.go): in a direct channel each reply of the other user (a self-DM none); in a
 * group channel none (its GetOtherUserIdForDM answers '' there, and no reply has that author); elsewhere each reply whose
 * text mentions the reader (mentionsUser), the reader's own replies included (that function does not leave them out).
 */
export async function countThreadMentions(channel: Pick<Channel, 'type' | 'name'>, replies: readonly Pick<StoredPost, 'message' | 'props' | 'user_id' | 'create_at'>[], reader: ThreadReader, timestamp: number): Promise<number> {
  const since = replies.filter((r) => r.create_at >= timestamp);
  if (channel.type === 'D') {
    const other = otherUserOfDirect(channel.name, reader.id);
    return other === '' ? 0 : since.filter((r) => r.user_id === other).length;
  }
  if (channel.type === 'G') return 0;
  let count = 0;
  for (const reply of since) if (await mentionsUser(reply, reader)) count += 1;
  return count;
}
