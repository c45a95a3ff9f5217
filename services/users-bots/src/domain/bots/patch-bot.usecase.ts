import { requireManageBot, type Actor } from '../authorization';
import { isSystemOwned, type BotChanges, type UserChanges } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { assertValidBotDescription, assertValidBotDisplayName, assertValidBotUsername } from '../rules/bot-rules';
import { duplicateUserError } from '../users/create-user.usecase';
import { botViewOf, type BotView } from '../views';
import type { BotPatchInput } from './create-bot.usecase';

/**
 * `PUT /bots/{id}`: a BotPatch. Renaming also renames the user and rewrites its `<username>@localhost`
 * email. Nothing different → the bot unchanged, nothing written. The system bot keeps its username.
 */
export async function patchBot(deps: Deps, actor: Actor, botId: string, patch: BotPatchInput): Promise<BotView> {
  const bot = await deps.bots.findById(botId);
  if (!bot) throw Errors.botNotFound();
  requireManageBot(actor, bot);
  const user = await deps.users.findById(botId);
  if (!user) throw Errors.botNotFound();

  if (patch.username !== undefined) assertValidBotUsername(patch.username);
  if (patch.displayName !== undefined) assertValidBotDisplayName(patch.displayName);
  if (patch.description !== undefined) assertValidBotDescription(patch.description);

  const rename = patch.username !== undefined && patch.username !== user.username;
  if (rename && isSystemOwned(bot)) throw Errors.systemOwnedBot();
  const botChanges: BotChanges = {
    ...(patch.displayName !== undefined && patch.displayName !== bot.displayName ? { displayName: patch.displayName } : {}),
    ...(patch.description !== undefined && patch.description !== bot.description ? { description: patch.description } : {}),
  };
  if (!rename && Object.keys(botChanges).length === 0) return { bot, username: user.username };

  const now = deps.clock.now();
  const userChanges: UserChanges = {
    ...(rename && patch.username !== undefined ? { username: patch.username, email: `${patch.username}@localhost` } : {}),
    ...(botChanges.displayName !== undefined ? { firstName: botChanges.displayName } : {}),
  };
  if (rename && patch.username !== undefined && (await deps.users.findByUsername(patch.username))) throw Errors.usernameExists();
  if (Object.keys(userChanges).length > 0) {
    try {
      await deps.users.update(botId, { ...userChanges, updateAt: now });
    } catch (error) {
      throw duplicateUserError(error);
    }
  }
  const updated = (await deps.bots.update(botId, { ...botChanges, updateAt: now })) ?? bot;
  const view = await botViewOf(deps, updated);
  await deps.events.users('bot.updated', { userId: botId, username: view.username, isBot: true });
  return view;
}
