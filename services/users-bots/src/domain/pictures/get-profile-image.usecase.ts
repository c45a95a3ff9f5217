import { requireCanSeeUser, type Actor } from '../authorization';
import type { User } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botIconKey, initialOf, PNG, pictureOf, profileImageKey, type Picture } from './picture-keys';

async function visibleUser(deps: Deps, actor: Actor, userId: string): Promise<User> {
  requireCanSeeUser(actor, userId);
  const user = await deps.cachedUsers.cached(userId);
  if (!user) throw Errors.userNotFound();
  return user;
}

async function defaultPicture(deps: Deps, user: User): Promise<Picture> {
  return { contentType: PNG, data: await deps.pictures.initialsPicture(initialOf(user.username), user.id) };
}

/**
 * `GET /users/{id}/image`: a bot's icon when it has one, else the uploaded picture, else the generated
 * default (the initial on a colour from the user id). Stored pictures carry an ETag; the default has none.
 */
export async function getProfileImage(deps: Deps, actor: Actor, userId: string): Promise<Picture> {
  const user = await visibleUser(deps, actor, userId);
  if (user.isBot) {
    const bot = await deps.bots.findById(userId);
    const icon = bot && bot.lastIconUpdate > 0 ? await deps.images.get(botIconKey(userId)) : undefined;
    if (bot && icon) return pictureOf(icon, `icon-${bot.lastIconUpdate}`);
  }
  if (user.lastPictureUpdate > 0) {
    const stored = await deps.images.get(profileImageKey(userId));
    if (stored) return pictureOf(stored, String(user.lastPictureUpdate));
  }
  return defaultPicture(deps, user);
}

/** `GET /users/{id}/image/default`: the generated default, whatever was uploaded. */
export async function getDefaultProfileImage(deps: Deps, actor: Actor, userId: string): Promise<Picture> {
  return defaultPicture(deps, await visibleUser(deps, actor, userId));
}
