import type { User, UserChanges } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { assertValidEmail, assertValidUsername } from '../rules/user-rules';
import { assertValidPatchedProfile, mentionKeysAfterRename } from '../rules/user-patch-rules';
import { viewOf, type UserView } from '../views';
import { duplicateUserError } from './create-user.usecase';

/**
 * The reference's UpdateUser and its store's Update for changes already normalised (PreUpdate): the changed user must pass
 * User.IsValid (`model.user.is_valid.<field>.app_error`), a new email is unverified, a new username leaves the old one's
 * mention keys (UpdateMentionKeysFromUsername), and username and email stay unique (400 `app.user.save.*_exists`).
 * `user.updated` goes out before the answer (realtime's `user_updated`; the gateway's, users-bots' and posts' caches of
 * the user, mention settings included, drop it). Undefined when the user vanished meanwhile.
 */
export async function saveUserChanges(deps: Deps, target: User, changes: UserChanges): Promise<UserView | undefined> {
  const changed: User = { ...target, ...changes };
  assertValidUsername(changed.username);
  assertValidEmail(changed.email);
  assertValidPatchedProfile(changed);
  const renamed = changed.username !== target.username;
  const newEmail = changed.email !== target.email;
  if (renamed) {
    const holder = await deps.users.findByUsername(changed.username);
    if (holder && holder.id !== target.id) throw Errors.usernameExists();
  }
  if (newEmail) {
    const holder = await deps.users.findByEmail(changed.email);
    if (holder && holder.id !== target.id) throw Errors.emailExists();
  }
  const stored: UserChanges = {
    ...changes,
    ...(newEmail ? { emailVerified: false } : {}),
    ...(renamed ? { notifyProps: { ...changed.notifyProps, mention_keys: mentionKeysAfterRename(changed.notifyProps, target.username) } } : {}),
    updateAt: deps.clock.now(),
  };
  let updated: User | undefined;
  try {
    updated = await deps.users.update(target.id, stored);
  } catch (error) {
    throw duplicateUserError(error);
  }
  if (!updated) return undefined;
  await deps.events.users('user.updated', { userId: updated.id, username: updated.username, isBot: updated.isBot });
  return viewOf(deps, updated);
}
