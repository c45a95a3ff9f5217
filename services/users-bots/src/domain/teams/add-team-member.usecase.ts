import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { can, requireOnTeam, type Actor } from '../authorization';
import type { TeamMember } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';

/**
 * `POST /teams/{team_id}/members`: joining yourself needs join_public_teams (team allows open invites) or
 * join_private_teams; adding someone else needs add_user_to_team on the team. Re-adding an existing
 * member answers that member; a removed one comes back. A new or returning member is announced with
 * `team.member_added` and joined to town-square and off-topic before the answer (`teamChannels`; posts
 * does it again from the event, idempotently).
 */
export async function addTeamMember(deps: Deps, actor: Actor, teamId: string, userId: string): Promise<TeamMember> {
  const team = await deps.teams.findById(teamId);
  if (userId === actor.userId) {
    if (!team) throw Errors.teamNotFound();
    const permission = team.allowOpenInvite ? Permissions.joinPublicTeams : Permissions.joinPrivateTeams;
    if (!can(actor, permission) && !(await hasAddRight(deps, actor, teamId))) throw commonErrors.permissions(actor.userId, permission);
  } else {
    await requireOnTeam(deps, actor, teamId, Permissions.addUserToTeam);
  }
  if (!team || team.deleteAt > 0) throw Errors.teamNotFound();
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  if (user.deleteAt > 0) throw Errors.deactivatedTeamMember();

  const existing = await deps.members.find(teamId, userId);
  if (existing && existing.deleteAt === 0) return existing;
  const max = deps.liveConfig.current().TeamSettings.MaxUsersPerTeam;
  if (max > 0 && (await deps.members.countActive(teamId)) >= max) throw Errors.teamFull();
  if (existing) {
    const restored = (await deps.members.update(teamId, userId, { deleteAt: 0 })) ?? { ...existing, deleteAt: 0 };
    await deps.events.teams('team.member_added', { teamId, userId });
    await deps.teamChannels.joinDefault(teamId, userId);
    return restored;
  }

  const member: TeamMember = {
    teamId,
    userId,
    schemeGuest: false,
    schemeUser: true,
    schemeAdmin: false,
    explicitRoles: '',
    createAt: deps.clock.now(),
    deleteAt: 0,
  };
  try {
    await deps.members.insert(member);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const raced = await deps.members.find(teamId, userId);
    if (raced) return raced;
    throw error;
  }
  await deps.events.teams('team.member_added', { teamId, userId });
  await deps.teamChannels.joinDefault(teamId, userId);
  return member;
}

async function hasAddRight(deps: Deps, actor: Actor, teamId: string): Promise<boolean> {
  try {
    await requireOnTeam(deps, actor, teamId, Permissions.addUserToTeam);
    return true;
  } catch {
    return false;
  }
}
