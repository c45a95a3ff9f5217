import { commonErrors } from '@switchyard/errors';
import { requireSelfOrEditOthers, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps, ProfilePictureResult } from '../ports';
import { PNG, profileImageKey } from './picture-keys';

function rejection(result: Extract<ProfilePictureResult, { ok: false }>): Error {
  switch (result.reason) {
    case 'format':
      return Errors.profileImageFormat(result.detail);
    case 'dimensions':
      return Errors.profileImageTooLarge(400, result.detail);
    case 'corrupt':
      return Errors.profileImageDecode(result.detail);
  }
}

/**
 * `POST /users/{id}/image`: yourself or edit_other_users (checked before the upload is read). A PNG,
 * JPEG or GIF, within the pixel limit, is re-encoded as a 128×128 PNG (so nothing of the upload but its
 * pixels is kept) and `last_picture_update` set to now.
 */
export async function setProfileImage(deps: Deps, actor: Actor, userId: string, upload: () => Promise<Buffer>): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  const data = await upload();
  const user = await deps.users.findById(userId);
  if (!user) throw commonErrors.invalidUrlParam('user_id');
  const result = await deps.pictures.profilePicture(data);
  if (!result.ok) throw rejection(result);
  const now = deps.clock.now();
  await deps.images.put(profileImageKey(userId), { contentType: PNG, data: result.png, updateAt: now });
  await deps.users.update(userId, { lastPictureUpdate: now, updateAt: now });
  await deps.events.users('user.updated', { userId, username: user.username, isBot: user.isBot });
}
