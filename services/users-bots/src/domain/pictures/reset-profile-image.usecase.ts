import { requireSelfOrEditOthers, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { profileImageKey } from './picture-keys';

/** `DELETE /users/{id}/image`: back to the generated default; `last_picture_update` is 0 again. */
export async function resetProfileImage(deps: Deps, actor: Actor, userId: string): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  await deps.images.delete(profileImageKey(userId));
  await deps.users.update(userId, { lastPictureUpdate: 0, updateAt: deps.clock.now() });
  await deps.events.users('user.updated', { userId, username: user.username, isBot: user.isBot });
}
