import { mentionedNames } from '@switchyard/contracts';

/** Whether the message mentions the user: `@username` (case-insensitive), `@channel` or `@all`. */
export function mentionsUser(message: string, username: string): boolean {
  const names = mentionedNames(message);
  return (username !== '' && names.has(username.toLowerCase())) || names.has('channel') || names.has('all');
}
