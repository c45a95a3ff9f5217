import { commonErrors } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { InternalBot, InternalUser } from '@switchyard/contracts';
import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import type { Deps } from '../ports';
import type { Actor } from './hook-access';

/** The permission that lets a user manage this bot: manage_bots for their own, manage_others_bots otherwise. */
export function manageBotPermission(bot: InternalBot, userId: string): string {
  return bot.owner_id === userId ? Permissions.manageBots : Permissions.manageOthersBots;
}

/**
 * A bot hook's bot (README "Bot hooks"): a bot (not a human: 400), not disabled or deleted (400), one the
 * caller may manage (403 manage_bots / manage_others_bots), in the hook's team (400); its channel, when
 * set, may be private but the bot must be a member (400). Nothing to check for legacy hooks.
 */
export async function checkBotHook(deps: Pick<Deps, 'platform'>, actor: Actor, hook: OutgoingHook): Promise<void> {
  if (hook.botUserId === '') return;
  const invalid = (detail: string) => hookErrors.invalid('bot_user_id', detail);
  if (!isValidId(hook.botUserId)) throw invalid('not a user id');
  const [user] = await deps.platform.users([hook.botUserId]);
  if (!user || !user.isBot) throw invalid('not a bot');
  const bot = await deps.platform.bot(hook.botUserId);
  if (!bot || bot.delete_at !== 0 || user.deleteAt !== 0) throw invalid('the bot is disabled or deleted');
  const permission = manageBotPermission(bot, actor.userId);
  if (!hasPermission(actor.roles, permission)) throw commonErrors.permissions(actor.userId, permission);
  if ((await deps.platform.teamRoles(hook.teamId, hook.botUserId)) === '') throw invalid("the bot is not a member of the hook's team");
}

/** Create/update destination rules of a bot hook: a channel of the team (private allowed) the bot is in, or none. */
export async function checkBotDestination(deps: Pick<Deps, 'platform'>, hook: OutgoingHook): Promise<void> {
  if (hook.channelId === '') return;
  const channel = await deps.platform.channel(hook.channelId);
  if (!channel || channel.delete_at !== 0) throw hookErrors.channelNotFound();
  if (channel.team_id !== hook.teamId) throw hookErrors.teamPermissions();
  if ((await deps.platform.channelRoles(channel.id, hook.botUserId)) === undefined) throw hookErrors.invalid('channel_id', 'the bot is not a member of the channel');
}

/** Whether the hook's creator may still manage its bot (else the hook is disabled when it would fire). */
export function creatorMayManage(creator: InternalUser | undefined, bot: InternalBot): boolean {
  return creator !== undefined && creator.deleteAt === 0 && hasPermission(creator.roles, manageBotPermission(bot, creator.id));
}
