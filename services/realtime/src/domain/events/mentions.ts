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
