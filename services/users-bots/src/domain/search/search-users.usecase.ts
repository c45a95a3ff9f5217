import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { isAdmin, requireOnTeam, type Actor } from '../authorization';
import type { User } from '../entities';
import type { Deps, UserQuery } from '../ports';
import { viewsOf, type UserView } from '../views';
import type { ChannelMemberIds } from './channel-members.port';
import { matchesTerm, type TermFields } from './user-term';

/** Users read per request at most (bounded work: a term matching nobody on a huge server stops here). */
export const MAX_SCANNED_USERS = 20_000;
const SCAN_PAGE = 1_000;

export interface SearchUsersInput {
  readonly term: string;
  readonly teamId?: string;
  readonly notInTeamId?: string;
  readonly inChannelId?: string;
  readonly notInChannelId?: string;
  readonly allowInactive: boolean;
  readonly withoutTeam: boolean;
  readonly limit: number;
}

export type SearchUsersDeps = Deps & { readonly channelMembers: ChannelMemberIds };

/** The fields the caller may match on (mattermost-wire-3.md §2.5): names and e-mail only when visible to them. */
export function termFields(deps: Pick<Deps, 'liveConfig'>, actor: Actor, email: boolean): TermFields {
  const admin = isAdmin(actor);
  const privacy = deps.liveConfig.current().PrivacySettings;
  return { fullName: admin || privacy.ShowFullName, email: email && (admin || privacy.ShowEmailAddress) };
}

/** `POST /users/search`: permission checks first, then users by username whose every term word prefixes a visible field. */
export async function searchUsers(deps: SearchUsersDeps, actor: Actor, input: SearchUsersInput): Promise<UserView[]> {
  if (input.teamId !== undefined) await requireOnTeam(deps, actor, input.teamId, Permissions.viewTeam);
  if (input.notInTeamId !== undefined) await requireOnTeam(deps, actor, input.notInTeamId, Permissions.viewTeam);
  if (input.notInChannelId !== undefined && input.teamId === undefined) throw commonErrors.invalidBodyParam('team_id');
  const inChannel = input.inChannelId !== undefined ? await readableMembers(deps, actor, input.inChannelId) : undefined;
  const notInChannel = input.notInChannelId !== undefined ? await readableMembers(deps, actor, input.notInChannelId) : undefined;
  const excludeIds: string[] = [...(notInChannel ?? [])];
  if (input.notInTeamId !== undefined) excludeIds.push(...(await deps.members.userIdsInTeam(input.notInTeamId)));
  if (input.withoutTeam) excludeIds.push(...(await deps.members.userIdsWithAnyTeam()));
  let ids: readonly string[] | undefined = inChannel;
  if (input.teamId !== undefined) {
    const team = await deps.members.userIdsInTeam(input.teamId);
    ids = ids === undefined ? team : ids.filter((id) => team.includes(id));
  }
  const fields = termFields(deps, actor, true);
  const found = await scanUsers(deps, { ...(ids ? { ids } : {}), ...(excludeIds.length > 0 ? { excludeIds } : {}), ...(input.allowInactive ? {} : { active: true }) }, (u) => matchesTerm(u, input.term, fields), input.limit);
  return viewsOf(deps, found);
}

/** Members of a channel the caller may read (a member, or a system admin); 403 otherwise. */
export async function readableMembers(deps: SearchUsersDeps, actor: Actor, channelId: string): Promise<string[]> {
  const members = await deps.channelMembers.memberIds(channelId);
  if (members === undefined || (!members.includes(actor.userId) && !isAdmin(actor))) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  return [...members];
}

/** Users by username, `keep`-filtered, until `limit` are found or MAX_SCANNED_USERS were read. */
export async function scanUsers(deps: Pick<Deps, 'users'>, filter: Omit<UserQuery, 'page' | 'perPage'>, keep: (user: User) => boolean, limit: number): Promise<User[]> {
  if (filter.ids !== undefined && filter.ids.length === 0) return [];
  const found: User[] = [];
  for (let page = 0; page * SCAN_PAGE < MAX_SCANNED_USERS; page += 1) {
    const users = await deps.users.search({ ...filter, page, perPage: SCAN_PAGE, sort: 'username' });
    for (const user of users) {
      if (keep(user)) found.push(user);
      if (found.length >= limit) return found;
    }
    if (users.length < SCAN_PAGE) break;
  }
  return found;
}
