import { mentionedNames } from '@switchyard/contracts';

/** Attachments (and fields of one) read for mentions at most: bounded work per post. */
const MAX_ATTACHMENTS = 100;

/** The texts where a mention counts (the reference's getMentionsEnabledFields): the message, then each attachment's pretext, text and field values. */
export function mentionTexts(post: { readonly message: string; readonly props?: Readonly<Record<string, unknown>> }): string[] {
  const texts = [post.message];
  const attachments = post.props?.attachments;
  if (!Array.isArray(attachments)) return texts;
  for (const attachment of attachments.slice(0, MAX_ATTACHMENTS)) {
    if (typeof attachment !== 'object' || attachment === null) continue;
    const { pretext, text, fields } = attachment as { pretext?: unknown; text?: unknown; fields?: unknown };
    if (typeof pretext === 'string' && pretext !== '') texts.push(pretext);
    if (typeof text === 'string' && text !== '') texts.push(text);
    if (Array.isArray(fields)) {
      for (const field of fields.slice(0, MAX_ATTACHMENTS)) {
        const value = typeof field === 'object' && field !== null ? (field as { value?: unknown }).value : undefined;
        if (typeof value === 'string' && value !== '') texts.push(value);
      }
    }
  }
  return texts;
}

/** `@name` tokens of all of a post's mention texts. */
export function postMentionedNames(post: { readonly message: string; readonly props?: Readonly<Record<string, unknown>> }): Set<string> {
  const names = new Set<string>();
  for (const text of mentionTexts(post)) for (const name of mentionedNames(text)) names.add(name);
  return names;
}

/** Whether a post uses a channel-wide word at all. */
export function hasChannelWide(names: ReadonlySet<string>): boolean {
  return names.has('channel') || names.has('all') || names.has('here');
}

/**
 * What channel-wide words may do for one post (the reference's allowChannelMentions): nothing when not
 * allowed; `@here` mentions only receivers in `online` (status exactly online).
 */
export interface ChannelWide {
  readonly allowed: boolean;
  readonly online: ReadonlySet<string>;
}

export const NO_CHANNEL_WIDE: ChannelWide = { allowed: false, online: new Set() };

/**
 * Whether a post mentions the receiver (newest reference: `mentions` is sent per connection, only to a
 * mentioned receiver, as `["<own id>"]`). The author is never mentioned by their own post; `@channel` and
 * `@all` mention every member and `@here` the online ones, when the post may use them.
 */
export function mentions(names: ReadonlySet<string>, receiver: { readonly id: string; readonly username: string }, authorId: string, channelWide: ChannelWide): boolean {
  if (receiver.id === authorId) return false;
  if (receiver.username !== '' && names.has(receiver.username.toLowerCase())) return true;
  if (!channelWide.allowed) return false;
  return names.has('channel') || names.has('all') || (names.has('here') && channelWide.online.has(receiver.id));
}
