import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import type { Deps } from '../ports';
import { checkBotDestination } from './bot-hook';
import { intersects } from './hook-rules';

type Mode = 'create' | 'update';

/**
 * The app-level checks of create and update (mattermost-wire.md §10): an open channel of the same team,
 * or trigger words (a bot hook: its bot's rules, checkBotDestination); no other hook of the channel sharing a URL and a word. Ids and statuses differ
 * between create and update exactly as in the reference.
 */
export async function checkDestination(deps: Pick<Deps, 'platform' | 'hooks'>, hook: OutgoingHook, mode: Mode): Promise<void> {
  if (hook.botUserId !== '') {
    await checkBotDestination(deps, hook);
  } else if (hook.channelId !== '') {
    const channel = await deps.platform.channel(hook.channelId);
    if (!channel || channel.delete_at !== 0) throw hookErrors.channelNotFound();
    if (channel.type !== 'O') throw mode === 'create' ? hookErrors.notOpenOnCreate() : hookErrors.notOpenOnUpdate();
    if (channel.team_id !== hook.teamId) throw hookErrors.teamPermissions();
  } else if (hook.triggerWords.length === 0) {
    throw mode === 'create' ? hookErrors.triggersOnCreate() : hookErrors.triggersOnUpdate();
  }
  const others = await deps.hooks.findByTeam(hook.teamId);
  if (intersects(hook, others)) throw mode === 'create' ? hookErrors.intersectOnCreate() : hookErrors.intersectOnUpdate();
}
