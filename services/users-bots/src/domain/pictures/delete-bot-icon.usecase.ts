import { requireManageBot, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botIconKey } from './picture-keys';

/**
 * `DELETE /bots/{id}/icon`: same permission as setting it. Clears `last_icon_update` and, as the
 * reference does, moves the user's `last_picture_update` so cached pictures are fetched again. A bot
 * without an icon answers OK too (nothing to remove).
 */
export async function deleteBotIcon(deps: Deps, actor: Actor, botId: string): Promise<void> {
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  requireManageBot(actor, bot);
  await deps.images.delete(botIconKey(botId));
  const now = deps.clock.now();
  await deps.users.update(botId, { lastPictureUpdate: now, updateAt: now });
  await deps.bots.update(botId, { lastIconUpdate: 0, updateAt: now });
  await deps.events.users('bot.updated', { userId: botId, isBot: true });
}
