import type { PostEventPayload } from '@switchyard/contracts';
import { pendingDelivery } from '../delivery/pending-delivery';
import { isOrderedHook, type Delivery, type OutgoingHook } from '../entities';
import { firstWordOf, TRIGGER_EXACT, TRIGGER_STARTS_WITH } from '../hooks/hook-rules';
import type { Deps } from '../ports';
import { derivedId } from '../secrets';
import { outgoingPayloadBody, requestContentType } from './outgoing-payload';
import { startDeliveries, type Planned } from './start-deliveries';
import { BotGate } from './bot-gate';
import { botHooksInScope } from './bot-index';
import { botHooksHearing } from './fire-events.usecase';

/** The raw post.created fields bot hooks are pre-selected on (before the payload is validated). */
export interface BotView {
  readonly channelId: string;
  readonly channelType: string;
  readonly channelName: string;
  readonly teamId: string;
  readonly authorId: string;
  readonly message: string;
}

/** Whether a created post may fire bot hooks at all: as legacy hooks, but in any channel type. */
export function mayFireForBots(event: PostEventPayload): boolean {
  const command = event.source === 'command';
  if ((event.source !== 'api' && !command) || (event.from_webhook && !command) || event.is_system) return false;
  if (event.post.type.startsWith('system_') || (event.post.props.from_webhook === 'true' && !command)) return false;
  return event.channel.delete_at === 0;
}

/**
 * Bot hooks that could hear the post, from what the post says alone (no I/O): its own channel; a DM
 * with the bot; a group message; a channel of the hook's team when the message could mention someone.
 * Membership, the mention itself and the bot's state are checked afterwards (fireBotHooks).
 */
export function botCandidates(hooks: readonly OutgoingHook[], view: BotView): OutgoingHook[] {
  return botHooksInScope(hooks, { id: view.channelId, type: view.channelType, name: view.channelName, teamId: view.teamId }).filter((hook) => {
    if (hook.disabledAt !== 0 || hook.botUserId === view.authorId || !hook.eventTypes.includes('posted')) return false;
    if (hook.channelId !== '') return hook.channelId === view.channelId;
    if (view.channelType === 'D') return view.channelName.split('__').includes(hook.botUserId);
    if (view.channelType === 'G') return true;
    return view.teamId === hook.teamId && view.message.includes('@');
  });
}

/** `@username` as a mention: not part of a longer name on either side (case-insensitive, as the reference). */
export function mentions(message: string, username: string): boolean {
  const escaped = username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9_.\\-@])@${escaped}(?![a-z0-9_\\-]|\\.[a-z0-9_\\-])`, 'i').test(message);
}

function triggerWordFor(hook: OutgoingHook, firstWord: string): string | undefined {
  if (hook.triggerWords.length === 0) return '';
  if (hook.triggerWhen === TRIGGER_EXACT) return hook.triggerWords.find((w) => w === firstWord);
  if (hook.triggerWhen === TRIGGER_STARTS_WITH) return hook.triggerWords.find((w) => firstWord !== '' && firstWord.startsWith(w));
  return undefined;
}

/**
 * A created post → deliveries of the bot hooks that hear it (README "Bot hooks"): in a DM or group message
 * with the bot, a mention of the bot in a channel of the hook's team, or any post of the hook's channel;
 * only where the bot is a member now, the bot is enabled, and never its own posts; trigger words narrow.
 * A hook whose creator may no longer manage the bot is disabled instead. Payload: the reference's plus
 * `channel_type` and `bot_user_id`.
 */
export async function fireBotHooks(deps: Deps, event: PostEventPayload): Promise<Delivery[]> {
  if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks || !mayFireForBots(event)) return [];
  const view: BotView = { channelId: event.channel.id, channelType: event.channel.type, channelName: event.channel.name, teamId: event.channel.team_id, authorId: event.author.id, message: event.post.message };
  const candidates = botCandidates(await botHooksHearing(deps, 'posted'), view);
  if (candidates.length === 0) return [];
  const gate = await BotGate.open(deps, event.channel.id, candidates);
  const firstWord = firstWordOf(event.post.message);
  const now = deps.clock.now();
  const planned: Planned[] = [];
  for (const hook of candidates) {
    const botUser = gate.botUser(hook);
    if (!botUser) continue;
    if (hook.channelId === '' && (event.channel.type === 'O' || event.channel.type === 'P') && !mentions(event.post.message, botUser.username)) continue;
    const triggerWord = triggerWordFor(hook, firstWord);
    if (triggerWord === undefined) continue;
    if (!(await gate.allows(hook, now))) continue;
    const body = outgoingPayloadBody(hook, event, triggerWord, { channel_type: event.channel.type, bot_user_id: hook.botUserId });
    for (const url of new Set(hook.callbackUrls)) {
      planned.push({
        hook,
        delivery: pendingDelivery({
          id: derivedId('delivery', event.post.id, hook.id, url),
          hookId: hook.id,
          postId: event.post.id,
          channelId: event.channel.id,
          threadRootId: event.post.root_id !== '' ? event.post.root_id : event.post.id,
          url,
          contentType: requestContentType(hook),
          body,
          ordered: isOrderedHook(hook),
        }, now),
      });
    }
  }
  return startDeliveries(deps, planned);
}
