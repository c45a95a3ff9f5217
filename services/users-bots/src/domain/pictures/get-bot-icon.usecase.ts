import { requireCanSeeUser, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botIconKey, pictureOf, type Picture } from './picture-keys';

/** `GET /bots/{id}/icon`: anyone who may see the bot user; a disabled bot's icon too; no icon is 404. */
export async function getBotIcon(deps: Deps, actor: Actor, botId: string): Promise<Picture> {
  requireCanSeeUser(actor, botId);
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  const icon = bot.lastIconUpdate > 0 ? await deps.images.get(botIconKey(botId)) : undefined;
  if (!icon) throw Errors.botIconMissing();
  return pictureOf(icon, String(bot.lastIconUpdate));
}
