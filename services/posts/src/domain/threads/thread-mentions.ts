/** `@name` tokens of a message (lower-cased; trailing dots, dashes and underscores dropped as the reference does). */
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

/** Whether the message mentions the user: `@username` (case-insensitive), `@channel` or `@all`. */
export function mentionsUser(message: string, username: string): boolean {
  const names = mentionedNames(message);
  return (username !== '' && names.has(username.toLowerCase())) || names.has('channel') || names.has('all');
}
