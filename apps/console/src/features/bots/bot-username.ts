/** The requirements' bot username rule, said once for people and checked the same way as the server. */
export const BOT_USERNAME_RULE = '3 to 22 characters: lowercase letters, digits, dots, hyphens and underscores. It must start with a lowercase letter and must not end with a dot.';

/** What is wrong with a bot username, in words, or undefined when it is fine. */
export function botUsernameProblem(username: string): string | undefined {
  if (username.length < 3) return 'Too short: at least 3 characters.';
  if (username.length > 22) return `Too long: at most 22 characters (now ${username.length}).`;
  if (!/^[a-z]/.test(username)) return 'Must start with a lowercase letter.';
  if (!/^[a-z0-9._-]+$/.test(username)) return 'Only lowercase letters, digits, dots, hyphens and underscores are allowed.';
  if (username.endsWith('.')) return 'Must not end with a dot.';
  return undefined;
}
