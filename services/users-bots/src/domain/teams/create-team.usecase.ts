import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { can, type Actor } from '../authorization';
import type { Team, TeamType } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { assertValidTeam } from '../rules/team-rules';

export interface CreateTeamInput {
  readonly name: string;
  readonly displayName: string;
  readonly type: string;
  readonly description?: string;
  readonly email?: string;
  readonly companyName?: string;
  readonly allowedDomains?: string;
  readonly allowOpenInvite?: boolean;
}

/**
 * `POST /teams`: needs create_team (403 is_team_creation_allowed.disabled); the creator becomes a team
 * admin. Channels belong to the posts service: it creates and joins town-square and off-topic before the
 * answer (`teamChannels`, as the reference does inside the request), and again from `team.created`
 * (idempotent) should that call have failed.
 */
export async function createTeam(deps: Deps, actor: Actor, input: CreateTeamInput): Promise<Team> {
  if (!can(actor, Permissions.createTeam)) throw Errors.teamCreationDenied();
  const fields = {
    name: input.name,
    displayName: input.displayName,
    type: input.type,
    description: input.description ?? '',
    email: (input.email ?? '').trim().toLowerCase(),
    companyName: input.companyName ?? '',
    allowedDomains: input.allowedDomains ?? '',
  };
  assertValidTeam(fields);
  if (await deps.teams.findByName(fields.name)) throw Errors.teamNameExists();
  const now = deps.clock.now();
  const team: Team = {
    ...fields,
    id: newId(),
    type: fields.type as TeamType,
    inviteId: newId(),
    allowOpenInvite: input.allowOpenInvite ?? false,
    createAt: now,
    updateAt: now,
    deleteAt: 0,
    lastTeamIconUpdate: 0,
  };
  try {
    await deps.teams.insert(team);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw Errors.teamNameExists();
    throw error;
  }
  await deps.members.insert({
    teamId: team.id,
    userId: actor.userId,
    schemeGuest: false,
    schemeUser: true,
    schemeAdmin: true,
    explicitRoles: '',
    createAt: now,
    deleteAt: 0,
  });
  await deps.events.teams('team.created', { teamId: team.id, userId: actor.userId });
  await deps.teamChannels.joinDefault(team.id, actor.userId);
  return team;
}
