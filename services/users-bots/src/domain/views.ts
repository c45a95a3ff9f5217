import type { Bot, User } from './entities';
import type { Deps } from './ports';

/** A user with its Bots row when it is a bot (the reference joins the two for `is_bot`, `bot_description`). */
export interface UserView {
  readonly user: User;
  readonly bot?: Bot;
}

export async function viewOf(deps: Pick<Deps, 'bots'>, user: User): Promise<UserView> {
  if (!user.isBot) return { user };
  const bot = await deps.bots.findById(user.id);
  return bot ? { user, bot } : { user };
}

export async function viewsOf(deps: Pick<Deps, 'bots'>, users: readonly User[]): Promise<UserView[]> {
  const botIds = users.filter((u) => u.isBot).map((u) => u.id);
  const bots = botIds.length === 0 ? [] : await deps.bots.findByIds(botIds);
  const byId = new Map(bots.map((b) => [b.id, b]));
  return users.map((user) => {
    const bot = byId.get(user.id);
    return bot ? { user, bot } : { user };
  });
}

/** A bot with its user (the Bot JSON needs the username). */
export interface BotView {
  readonly bot: Bot;
  readonly username: string;
}

export async function botViewsOf(deps: Pick<Deps, 'users'>, bots: readonly Bot[]): Promise<BotView[]> {
  const users = bots.length === 0 ? [] : await deps.users.findByIds(bots.map((b) => b.id));
  const names = new Map(users.map((u) => [u.id, u.username]));
  return bots.map((bot) => ({ bot, username: names.get(bot.id) ?? '' }));
}

export async function botViewOf(deps: Pick<Deps, 'users'>, bot: Bot): Promise<BotView> {
  const user = await deps.users.findById(bot.id);
  return { bot, username: user?.username ?? '' };
}
