import { requireManageBot, type Actor } from '../authorization';
import { isSystemOwned } from '../entities';
import { Errors } from '../errors';
import { disableBot, enableBot } from '../lifecycle';
import type { Deps } from '../ports';
import { botViewOf, type BotView } from '../views';

/**
 * `POST /bots/{id}/disable|enable`: delete_at set or cleared on the bot and its user; disabling revokes
 * the bot's sessions. The system-owned bot cannot be disabled.
 */
export async function setBotActive(deps: Deps, actor: Actor, botId: string, active: boolean): Promise<BotView> {
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  requireManageBot(actor, bot);
  if (!active && isSystemOwned(bot)) throw Errors.systemOwnedBot();
  if (active === (bot.deleteAt === 0)) return botViewOf(deps, bot);
  return botViewOf(deps, active ? await enableBot(deps, bot) : await disableBot(deps, bot));
}
