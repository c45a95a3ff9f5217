import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { fullNameOrUsername, type Bot } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import { revokeAllSessions } from '../lifecycle';
import type { Deps } from '../ports';

/** Sign-in methods whose data survives a conversion so directory/SSO sync keeps working. */
const KEEP_SIGN_IN_DATA = new Set(['ldap', 'saml']);

/**
 * `POST /users/{id}/convert_to_bot` (manage_system): a Bots row owned by the user itself, password
 * sign-in data removed (ldap and saml users keep theirs), sessions revoked.
 */
export async function convertUserToBot(deps: Deps, actor: Actor, userId: string): Promise<{ bot: Bot; username: string }> {
  requirePermission(actor, Permissions.manageSystem);
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  if (user.isBot || (await deps.bots.findById(userId))) throw Errors.alreadyBot();
  const now = deps.clock.now();
  const bot: Bot = {
    id: user.id,
    displayName: fullNameOrUsername(user),
    description: '',
    ownerId: user.id,
    createAt: now,
    updateAt: now,
    deleteAt: user.deleteAt,
    lastIconUpdate: 0,
  };
  try {
    await deps.bots.insert(bot);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw Errors.alreadyBot();
    throw error;
  }
  const keep = KEEP_SIGN_IN_DATA.has(user.authService);
  await deps.users.update(user.id, {
    isBot: true,
    updateAt: now,
    ...(keep ? {} : { passwordHash: '', authService: '', authData: null, lastPasswordUpdate: 0, mfaActive: false, failedAttempts: 0 }),
  });
  const sessionIds = await revokeAllSessions(deps, user.id);
  await deps.events.users('user.updated', { userId: user.id, username: user.username, isBot: true, sessionIds });
  await deps.events.users('bot.created', { userId: user.id, username: user.username, isBot: true });
  return { bot, username: user.username };
}
