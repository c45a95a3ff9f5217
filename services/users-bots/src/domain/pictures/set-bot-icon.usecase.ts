import { requireManageBot, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botIconKey, SVG } from './picture-keys';

/**
 * `POST /bots/{id}/icon`: the bot must exist and the caller must manage it (before the upload is read);
 * the upload must be an SVG document, which is stored sanitised (never as sent). Sets the bot's
 * `last_icon_update`; the user's `last_picture_update` is left alone, as the reference does.
 */
export async function setBotIcon(deps: Deps, actor: Actor, botId: string, upload: () => Promise<Buffer>): Promise<void> {
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  requireManageBot(actor, bot);
  const data = await upload();
  const svg = await deps.pictures.sanitizeSvg(data);
  if (!svg) throw Errors.botIconParse('the image is not an SVG document');
  const now = deps.clock.now();
  await deps.images.put(botIconKey(botId), { contentType: SVG, data: svg, updateAt: now });
  await deps.bots.update(botId, { lastIconUpdate: now, updateAt: now });
  await deps.events.users('bot.updated', { userId: botId, isBot: true });
}
