import { internalError } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { requireOnTeam, type Actor } from '../authorization';
import { viewsOf, type UserView } from '../views';
import { readableMembers, scanUsers, termFields, type SearchUsersDeps } from './search-users.usecase';
import { matchesTerm } from './user-term';

export interface AutocompleteInput {
  readonly name: string;
  readonly inTeam?: string;
  readonly inChannel?: string;
  readonly limit: number;
}

export interface AutocompleteResult {
  readonly users: UserView[];
  /** Only with in_channel: team members outside the channel. */
  readonly outOfChannel?: UserView[];
}

/**
 * `GET /users/autocomplete` (mattermost-wire-3.md §2.5): active users whose every name word prefixes their
 * username, nickname or (when visible) full name; e-mail is never matched. in_channel needs in_team (the
 * reference answers 500 without it), read access to the channel and view_team.
 */
export async function autocompleteUsers(deps: SearchUsersDeps, actor: Actor, input: AutocompleteInput): Promise<AutocompleteResult> {
  if (input.inChannel !== undefined && input.inTeam === undefined) {
    throw internalError('api.user.autocomplete_users.missing_team_id.app_error', 'Team id parameter is required to autocomplete by channel.');
  }
  if (input.inTeam !== undefined) await requireOnTeam(deps, actor, input.inTeam, Permissions.viewTeam);
  const fields = termFields(deps, actor, false);
  const keep = (user: Parameters<typeof matchesTerm>[0]): boolean => matchesTerm(user, input.name, fields);
  if (input.inChannel !== undefined && input.inTeam !== undefined) {
    const members = await readableMembers(deps, actor, input.inChannel);
    const team = await deps.members.userIdsInTeam(input.inTeam);
    const users = await scanUsers(deps, { ids: members, active: true }, keep, input.limit);
    const outside = team.filter((id) => !members.includes(id));
    const out = await scanUsers(deps, { ids: outside, active: true }, keep, input.limit);
    return { users: await viewsOf(deps, users), ...(out.length > 0 ? { outOfChannel: await viewsOf(deps, out) } : {}) };
  }
  const ids = input.inTeam !== undefined ? await deps.members.userIdsInTeam(input.inTeam) : undefined;
  const users = await scanUsers(deps, { ...(ids ? { ids } : {}), active: true }, keep, input.limit);
  return { users: await viewsOf(deps, users) };
}
