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

/** Whether the message mentions `@username` (case-insensitive). */
export function mentionsUsername(message: string, username: string): boolean {
  return username !== '' && mentionedNames(message).has(username.toLowerCase());
}
