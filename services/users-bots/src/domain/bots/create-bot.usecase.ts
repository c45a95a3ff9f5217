import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import { newUser, type Bot } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { assertValidBotDescription, assertValidBotDisplayName, assertValidBotUsername } from '../rules/bot-rules';
import { duplicateUserError } from '../users/create-user.usecase';
import type { BotView } from '../views';

export interface BotPatchInput {
  readonly username?: string;
  readonly displayName?: string;
  readonly description?: string;
}

/** Creates the bot's user and its Bots row (user first: it holds the unique username). */
export async function insertBot(deps: Deps, fields: { id?: string; username: string; displayName: string; description: string; ownerId: string }): Promise<BotView> {
  const now = deps.clock.now();
  const id = fields.id ?? newId();
  const user = newUser({
    id,
    username: fields.username,
    email: `${fields.username}@localhost`,
    createAt: now,
    firstName: fields.displayName,
    isBot: true,
    roles: 'system_user',
  });
  const bot: Bot = { id, displayName: fields.displayName, description: fields.description, ownerId: fields.ownerId, createAt: now, updateAt: now, deleteAt: 0, lastIconUpdate: 0 };
  try {
    await deps.users.insert(user);
  } catch (error) {
    throw duplicateUserError(error);
  }
  try {
    await deps.bots.insert(bot);
  } catch (error) {
    await deps.users.delete(id);
    throw error;
  }
  await deps.events.users('bot.created', { userId: id, username: user.username, isBot: true });
  return { bot, username: user.username };
}

/**
 * `POST /bots`: create_bot first (bots may never create bots: 403 as a permission error), then
 * EnableBotAccountCreation (403 api.bot.create_disabled), then validation. The caller owns the bot.
 */
export async function createBot(deps: Deps, actor: Actor, input: BotPatchInput): Promise<BotView> {
  requirePermission(actor, Permissions.createBot);
  if (actor.isBot || (await deps.users.findById(actor.userId))?.isBot) throw commonErrors.permissions(actor.userId, Permissions.createBot);
  if (!deps.liveConfig.current().ServiceSettings.EnableBotAccountCreation) throw Errors.botCreateDisabled();
  assertValidBotUsername(input.username);
  const displayName = input.displayName ?? '';
  const description = input.description ?? '';
  assertValidBotDisplayName(displayName);
  assertValidBotDescription(description);
  if (await deps.users.findByUsername(input.username)) throw Errors.usernameExists();
  return insertBot(deps, { username: input.username, displayName, description, ownerId: actor.userId });
}
