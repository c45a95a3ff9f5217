/**
 * The `@name` tokens of a message, lower-cased; a token ending in dots, dashes or underscores also counts
 * without them, as the reference does (`@alice.` mentions alice). posts (thread follows, unread mentions)
 * and realtime (the `mentions` of `posted`) read mentions the same way through this one function.
 */
export function mentionedNames(message: string): Set<string> {
  const names = new Set<string>();
  for (const match of message.matchAll(/@([a-z0-9._-]+)/gi)) {
    const raw = (match[1] ?? '').toLowerCase();
    names.add(raw);
    const trimmed = raw.replace(/[._-]+$/, '');
    if (trimmed !== raw && trimmed !== '') names.add(trimmed);
  }
  return names;
}
