import { badRequest } from '@switchyard/errors';

const TEAM_NAME = /^[a-z0-9]+([a-z\-0-9]+|(__)?)[a-z0-9]+$/;
/** A team name may not START with any of these (a prefix match, as the reference does it). */
export const RESERVED_TEAM_NAME_PREFIXES = [
  'admin', 'api', 'channel', 'claim', 'error', 'files', 'help', 'landing', 'login', 'mfa', 'oauth', 'plug', 'plugins', 'post', 'signup', 'boards', 'playbooks',
] as const;
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/;

export interface TeamFields {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly email: string;
  readonly type: string;
  readonly companyName: string;
  readonly allowedDomains: string;
}

const invalid = (field: string, message: string) => badRequest(`model.team.is_valid.${field}.app_error`, message);
const runes = (s: string): number => [...s].length;

export function isReservedTeamName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_TEAM_NAME_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** `Team.IsValid`, in the reference's order. */
export function assertValidTeam(team: TeamFields): void {
  if (team.email !== '' && (team.email.length > 128 || !EMAIL.test(team.email))) throw invalid('email', 'Invalid email.');
  if (runes(team.displayName) === 0 || runes(team.displayName) > 64) throw invalid('name', 'Invalid name.');
  if (team.name.length > 64) throw invalid('name', 'Invalid name.');
  if (runes(team.description) > 255) throw invalid('description', 'Invalid description.');
  if (isReservedTeamName(team.name)) throw invalid('reserved', 'This URL is unavailable. Please try another.');
  if (team.name.length < 2 || !TEAM_NAME.test(team.name)) {
    throw invalid('characters', 'Name must be 2 or more lowercase alphanumeric characters.');
  }
  if (team.type !== 'O' && team.type !== 'I') throw invalid('type', 'Invalid type.');
  if (runes(team.companyName) > 64) throw invalid('company', 'Invalid company name.');
  if (team.allowedDomains.length > 1000) throw invalid('domains', 'Invalid allowed domains.');
}
