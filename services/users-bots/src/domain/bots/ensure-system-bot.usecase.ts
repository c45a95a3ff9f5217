import { SYSTEM_BOT_OWNER, SYSTEM_BOT_USERNAME } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { botViewOf, type BotView } from '../views';
import { insertBot } from './create-bot.usecase';

/**
 * At start: the system-owned bot `switchyard` exists (created on first start). Returns undefined when a
 * non-bot user already holds the name (the caller logs it).
 */
export async function ensureSystemBot(deps: Deps): Promise<BotView | undefined> {
  const existing = await deps.users.findByUsername(SYSTEM_BOT_USERNAME);
  if (existing) {
    if (!existing.isBot) return undefined;
    const bot = await deps.bots.findById(existing.id);
    if (bot) return botViewOf(deps, bot);
    const now = deps.clock.now();
    const repaired = { id: existing.id, displayName: 'Switchyard', description: 'System bot', ownerId: SYSTEM_BOT_OWNER, createAt: now, updateAt: now, deleteAt: 0, lastIconUpdate: 0 };
    await deps.bots.insert(repaired);
    return { bot: repaired, username: existing.username };
  }
  try {
    return await insertBot(deps, { username: SYSTEM_BOT_USERNAME, displayName: 'Switchyard', description: 'System bot', ownerId: SYSTEM_BOT_OWNER });
  } catch (error) {
    // Another instance created it at the same time.
    if (isDuplicateKeyError(error) || (error as { id?: string }).id === 'app.user.save.username_exists.app_error') {
      const user = await deps.users.findByUsername(SYSTEM_BOT_USERNAME);
      const bot = user ? await deps.bots.findById(user.id) : undefined;
      return bot ? botViewOf(deps, bot) : undefined;
    }
    throw error;
  }
}
