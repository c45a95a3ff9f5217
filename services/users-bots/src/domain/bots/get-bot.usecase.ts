import { canReadBot, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botViewOf, type BotView } from '../views';

/** `GET /bots/{id}`: a bot the caller may not read, or a disabled one without include_deleted, is 404. */
export async function getBot(deps: Deps, actor: Actor, botId: string, includeDeleted: boolean): Promise<BotView> {
  const bot = await deps.bots.findById(botId);
  if (!bot || !canReadBot(actor, bot) || (bot.deleteAt > 0 && !includeDeleted)) throw Errors.botNotFound();
  return botViewOf(deps, bot);
}
