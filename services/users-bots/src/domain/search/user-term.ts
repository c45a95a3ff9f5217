import type { User } from '../entities';

/** What a term may match in a user: username and nickname always; full names and e-mail when visible to the caller. */
export interface TermFields {
  readonly fullName: boolean;
  readonly email: boolean;
}

/**
 * The reference's database user search: the term trimmed and split on whitespace, a leading `@` of a word
 * ignored, and every word must be a case-insensitive prefix of at least one field.
 */
export function matchesTerm(user: User, term: string, fields: TermFields): boolean {
  const words = term.trim().toLowerCase().split(/\s+/).map((w) => w.replace(/^@/, '')).filter((w) => w !== '').slice(0, 16);
  if (words.length === 0) return true;
  const values = [user.username, user.nickname];
  if (fields.fullName) values.push(user.firstName, user.lastName);
  if (fields.email) values.push(user.email);
  const lowered = values.map((v) => v.toLowerCase());
  return words.every((word) => lowered.some((value) => value.startsWith(word)));
}
