import type { Bot, User } from './entities';
import type { Deps } from './ports';

/**
 * Activation changes shared by several use cases. Each write is a single-document update; the event
 * goes out last (before the HTTP answer) so the gateway drops cached tokens of the user.
 */

/** Revokes every session of a user; returns their ids. */
export async function revokeAllSessions(deps: Pick<Deps, 'sessions'>, userId: string): Promise<string[]> {
  return deps.sessions.deleteByUser(userId);
}

/** Disables a bot: delete_at on the bot row and its user, sessions revoked, `bot.disabled`. */
export async function disableBot(deps: Deps, bot: Bot, user?: User): Promise<Bot> {
  const now = deps.clock.now();
  const deleteAt = bot.deleteAt > 0 ? bot.deleteAt : now;
  const updated = (await deps.bots.update(bot.id, { deleteAt, updateAt: now })) ?? bot;
  const botUser = await deps.users.update(bot.id, { deleteAt, updateAt: now });
  const sessionIds = await revokeAllSessions(deps, bot.id);
  await deps.events.users('bot.disabled', { userId: bot.id, username: (botUser ?? user)?.username ?? '', isBot: true, sessionIds });
  return updated;
}

/** Enables a bot: delete_at cleared on the bot row and its user, `bot.enabled`. */
export async function enableBot(deps: Deps, bot: Bot): Promise<Bot> {
  const now = deps.clock.now();
  const updated = (await deps.bots.update(bot.id, { deleteAt: 0, updateAt: now })) ?? bot;
  const botUser = await deps.users.update(bot.id, { deleteAt: 0, updateAt: now });
  await deps.events.users('bot.enabled', { userId: bot.id, username: botUser?.username ?? '', isBot: true });
  return updated;
}

/**
 * Deactivates a user (sets delete_at, revokes sessions). For a human owner with
 * DisableBotsWhenOwnerIsDeactivated on, every enabled bot they own is disabled too.
 */
export async function deactivateUser(deps: Deps, user: User): Promise<void> {
  if (user.isBot) {
    const bot = await deps.bots.findById(user.id);
    if (bot) {
      await disableBot(deps, bot, user);
      return;
    }
  }
  const now = deps.clock.now();
  if (user.deleteAt === 0) await deps.users.update(user.id, { deleteAt: now, updateAt: now });
  const sessionIds = await revokeAllSessions(deps, user.id);
  if (!user.isBot && deps.liveConfig.current().ServiceSettings.DisableBotsWhenOwnerIsDeactivated) {
    for (const bot of await deps.bots.findByOwner(user.id)) {
      if (bot.deleteAt === 0) await disableBot(deps, bot);
    }
  }
  await deps.events.users('user.deactivated', { userId: user.id, username: user.username, isBot: user.isBot, sessionIds });
}

/** Reactivates a user. Bots disabled with their owner stay disabled (as the reference). */
export async function activateUser(deps: Deps, user: User): Promise<void> {
  if (user.isBot) {
    const bot = await deps.bots.findById(user.id);
    if (bot) {
      await enableBot(deps, bot);
      return;
    }
  }
  const now = deps.clock.now();
  if (user.deleteAt !== 0) await deps.users.update(user.id, { deleteAt: 0, updateAt: now });
  await deps.events.users('user.activated', { userId: user.id, username: user.username, isBot: user.isBot });
}
