import { commonErrors } from '@switchyard/errors';
import { hasPermission, hasTeamPermission, Permissions } from '@switchyard/permissions';
import { teamMemberRoles, type Bot } from './entities';
import { Errors } from './errors';
import type { Deps } from './ports';

/** The authenticated caller, as the gateway signed it. */
export interface Actor {
  readonly userId: string;
  readonly sessionId: string;
  readonly roles: string;
  readonly isBot: boolean;
  readonly sessionType: 'session' | 'UserAccessToken';
  readonly tokenId?: string;
}

export function can(actor: Actor, permission: string): boolean {
  return hasPermission(actor.roles, permission);
}

export function requirePermission(actor: Actor, permission: string): void {
  if (!can(actor, permission)) throw commonErrors.permissions(actor.userId, permission);
}

export function isAdmin(actor: Actor | undefined): boolean {
  return actor !== undefined && can(actor, Permissions.manageSystem);
}

/** The caller's roles in a team ('' when not an active member). */
export async function teamRolesOf(deps: Pick<Deps, 'members'>, teamId: string, userId: string): Promise<string> {
  const member = await deps.members.find(teamId, userId);
  return member && member.deleteAt === 0 ? teamMemberRoles(member) : '';
}

export async function canOnTeam(deps: Pick<Deps, 'members'>, actor: Actor, teamId: string, permission: string): Promise<boolean> {
  if (can(actor, permission)) return true;
  return hasTeamPermission(actor.roles, await teamRolesOf(deps, teamId, actor.userId), permission);
}

export async function requireOnTeam(deps: Pick<Deps, 'members'>, actor: Actor, teamId: string, permission: string): Promise<void> {
  if (!(await canOnTeam(deps, actor, teamId, permission))) throw commonErrors.permissions(actor.userId, permission);
}

/** Whether the caller may see the bot at all (GET /bots/{id}); otherwise it "does not exist". */
export function canReadBot(actor: Actor, bot: Bot): boolean {
  if (can(actor, Permissions.readOthersBots)) return true;
  return can(actor, Permissions.readBots) && bot.ownerId === actor.userId;
}

/**
 * The reference's manage check: own bot → manage_bots, someone else's → manage_others_bots; without even
 * the matching read permission the bot "does not exist" (404), otherwise 403.
 */
export function requireManageBot(actor: Actor, bot: Bot): void {
  const own = bot.ownerId === actor.userId;
  const manage = own ? Permissions.manageBots : Permissions.manageOthersBots;
  const read = own ? Permissions.readBots : Permissions.readOthersBots;
  if (can(actor, manage)) return;
  if (!can(actor, read)) throw Errors.botNotFound();
  throw commonErrors.permissions(actor.userId, manage);
}

/**
 * `SessionHasPermissionToUserOrBot`: self; a bot the caller may manage; another human with
 * edit_other_users. Any refusal is 403 edit_other_users, as the reference answers.
 */
export async function requireUserOrBotAccess(deps: Pick<Deps, 'bots'>, actor: Actor, userId: string): Promise<void> {
  if (actor.userId === userId || can(actor, Permissions.manageSystem)) return;
  const bot = await deps.bots.findById(userId);
  if (bot) {
    try {
      requireManageBot(actor, bot);
      return;
    } catch {
      throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
    }
  }
  if (!can(actor, Permissions.editOtherUsers)) throw commonErrors.permissions(actor.userId, Permissions.editOtherUsers);
}

/** `SessionHasPermissionToUser`: the user themself, or edit_other_users (403 otherwise). */
export function requireSelfOrEditOthers(actor: Actor, userId: string): void {
  if (actor.userId !== userId) requirePermission(actor, Permissions.editOtherUsers);
}

/** `UserCanSeeOtherUser` as far as Switchyard restricts it: yourself, or view_members (403 otherwise). */
export function requireCanSeeUser(actor: Actor, userId: string): void {
  if (actor.userId !== userId) requirePermission(actor, Permissions.viewMembers);
}
