import { commonErrors } from '@switchyard/errors';
import { Permissions } from '@switchyard/permissions';
import { requireManageBot, type Actor } from '../authorization';
import { isSystemOwned } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { botViewOf, type BotView } from '../views';

/** `POST /bots/{id}/assign/{user_id}`: manage check, then the new owner must exist and not be a bot (403 assign_bot). */
export async function assignBot(deps: Deps, actor: Actor, botId: string, ownerId: string): Promise<BotView> {
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  requireManageBot(actor, bot);
  const owner = await deps.users.findById(ownerId);
  if (!owner) throw Errors.userNotFound();
  if (owner.isBot) throw commonErrors.permissions(actor.userId, Permissions.assignBot);
  if (isSystemOwned(bot)) throw Errors.systemOwnedBot();
  if (bot.ownerId === ownerId) return botViewOf(deps, bot);
  const updated = (await deps.bots.update(botId, { ownerId, updateAt: deps.clock.now() })) ?? bot;
  const view = await botViewOf(deps, updated);
  await deps.events.users('bot.updated', { userId: botId, username: view.username, isBot: true });
  return view;
}
