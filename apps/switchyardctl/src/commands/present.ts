import { fields, formatTime } from '../output';
import type { Bot, User } from '../types';

export function botStatus(bot: Bot): string {
  return bot.delete_at ? 'disabled' : 'active';
}

export function describeBot(bot: Bot): string[] {
  return fields([
    ['user id', bot.user_id],
    ['username', bot.username],
    ['display name', bot.display_name],
    ['description', bot.description],
    ['owner id', bot.owner_id],
    ['status', botStatus(bot)],
    ['created', formatTime(bot.create_at)],
    ['disabled at', formatTime(bot.delete_at)],
  ]);
}

export function describeUser(user: User): string {
  return `${user.username} (${user.id})`;
}
