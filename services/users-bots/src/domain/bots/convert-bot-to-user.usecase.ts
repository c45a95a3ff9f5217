import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { isSystemOwned, type UserChanges } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { assertValidEmail, assertValidPassword, assertValidProfile, assertValidUsername } from '../rules/user-rules';
import { duplicateUserError } from '../users/create-user.usecase';
import { viewOf, type UserView } from '../views';

export interface ConvertBotToUserInput {
  readonly password: string;
  readonly username?: string;
  readonly email?: string;
  readonly nickname?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly position?: string;
  readonly setSystemAdmin: boolean;
}

/** `POST /bots/{id}/convert_to_user` (manage_system): the user patch applied, a password set, the Bots row removed. */
export async function convertBotToUser(deps: Deps, actor: Actor, botId: string, input: ConvertBotToUserInput): Promise<UserView> {
  requirePermission(actor, Permissions.manageSystem);
  const bot = await deps.bots.findById(botId);
  const user = await deps.users.findById(botId);
  if (!bot || !user) throw Errors.botNotFound();
  if (isSystemOwned(bot)) throw Errors.systemOwnedBot();

  const username = input.username !== undefined ? input.username.toLowerCase() : user.username;
  const email = input.email !== undefined ? input.email.trim().toLowerCase() : user.email;
  assertValidUsername(username);
  assertValidEmail(email);
  assertValidProfile(input);
  assertValidPassword(input.password, deps.liveConfig.current());
  if (username !== user.username && (await deps.users.findByUsername(username))) throw Errors.usernameExists();
  if (email !== user.email && (await deps.users.findByEmail(email))) throw Errors.emailExists();

  const now = deps.clock.now();
  const changes: UserChanges = {
    username,
    email,
    isBot: false,
    passwordHash: await deps.passwords.hash(input.password),
    lastPasswordUpdate: now,
    updateAt: now,
    ...(input.nickname !== undefined ? { nickname: input.nickname } : {}),
    ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
    ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
    ...(input.position !== undefined ? { position: input.position } : {}),
    ...(input.setSystemAdmin ? { roles: 'system_admin system_user' } : {}),
  };
  let updated;
  try {
    updated = await deps.users.update(botId, changes);
  } catch (error) {
    throw duplicateUserError(error);
  }
  await deps.bots.delete(botId);
  await deps.events.users('user.updated', { userId: botId, username, isBot: false });
  return viewOf(deps, updated ?? { ...user, ...changes });
}
