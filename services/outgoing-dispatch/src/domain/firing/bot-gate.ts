import type { InternalBot, InternalUser } from '@switchyard/contracts';
import { hookDisabledAlert } from '../alerts/hook-alerts';
import type { OutgoingHook } from '../entities';
import { creatorMayManage } from '../hooks/bot-hook';
import type { Deps } from '../ports';

/**
 * What every bot hook checks before it hears anything in a channel (posts and the other event types alike),
 * read now, once per bot per event: the bot user exists, is a bot and is not deleted; the bot is a member
 * of the channel now (membership changed since the hook was made, or since the last event, counts); the
 * bot is not disabled; its hook's creator may still manage it (else the hook is disabled and its creator
 * told).
 */
export class BotGate {
  private readonly members = new Map<string, boolean>();
  private readonly bots = new Map<string, InternalBot | undefined>();

  private constructor(private readonly deps: Deps, private readonly channelId: string, private readonly users: ReadonlyMap<string, InternalUser>) {}

  /** Loads the candidates' bots and creators in one call. */
  public static async open(deps: Deps, channelId: string, candidates: readonly OutgoingHook[]): Promise<BotGate> {
    const ids = [...new Set(candidates.flatMap((h) => [h.botUserId, h.creatorId]))];
    const users = new Map((await deps.platform.users(ids)).map((u) => [u.id, u]));
    return new BotGate(deps, channelId, users);
  }

  /** The hook's bot as a live bot user (undefined: unknown, not a bot, or deleted). */
  public botUser(hook: OutgoingHook): InternalUser | undefined {
    const user = this.users.get(hook.botUserId);
    return user && user.isBot && user.deleteAt === 0 ? user : undefined;
  }

  /** Whether the hook may hear this channel's event now (see the class). */
  public async allows(hook: OutgoingHook, now: number): Promise<boolean> {
    if (!this.botUser(hook)) return false;
    if (!this.members.has(hook.botUserId)) this.members.set(hook.botUserId, (await this.deps.platform.channelRoles(this.channelId, hook.botUserId)) !== undefined);
    if (!this.members.get(hook.botUserId)) return false;
    if (!this.bots.has(hook.botUserId)) this.bots.set(hook.botUserId, await this.deps.platform.bot(hook.botUserId));
    const bot = this.bots.get(hook.botUserId);
    if (!bot || bot.delete_at !== 0) return false;
    if (!creatorMayManage(this.users.get(hook.creatorId), bot)) {
      await disableForLostRights(this.deps, hook, now);
      return false;
    }
    return true;
  }
}

/** The creator lost the right to manage the bot: the hook is disabled (enable it again once the right is back). */
async function disableForLostRights(deps: Deps, hook: OutgoingHook, now: number): Promise<void> {
  const current = await deps.hooks.findById(hook.id);
  if (!current || current.disabledAt !== 0 || current.deleteAt !== 0) return;
  await deps.hooks.replace({ ...current, disabledAt: now, updateAt: Math.max(now, current.updateAt + 1) });
  deps.observer?.hookDisabled();
  deps.logger.warn('bot hook disabled: its creator may no longer manage the bot', { hook_id: hook.id, bot_user_id: hook.botUserId });
  void hookDisabledAlert(deps, hook, 'its creator may no longer manage its bot', hook.callbackUrls[0] ?? '');
}
