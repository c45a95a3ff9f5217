const CHANNEL_WIDE = ['channel', 'all', 'here'];

/**
 * Whether a post mentions the receiver (newest reference: `mentions` is sent per connection, only to a
 * mentioned receiver, as `["<own id>"]`). The author is never mentioned by their own post.
 */
export function mentions(names: ReadonlySet<string>, receiver: { readonly id: string; readonly username: string }, authorId: string): boolean {
  if (receiver.id === authorId) return false;
  if (receiver.username !== '' && names.has(receiver.username.toLowerCase())) return true;
  return CHANNEL_WIDE.some((n) => names.has(n));
}
