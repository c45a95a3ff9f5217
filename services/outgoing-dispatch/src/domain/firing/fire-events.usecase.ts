import { isOrderedHook, type Delivery, type OutgoingHook } from '../entities';
import { pendingDelivery } from '../delivery/pending-delivery';
import type { Deps } from '../ports';
import { derivedId } from '../secrets';
import { eventEnvelopeBody, type HookEvent } from './hook-event';
import { JSON_CONTENT_TYPE } from './outgoing-payload';
import { startDeliveries, type Planned } from './start-deliveries';
import { BotGate } from './bot-gate';
import { botHooksInScope } from './bot-index';

/**
 * Whether the event is in a legacy hook's scope (README "Event types"): its channel when it has one, else its
 * team's public channels; a public channel either way, as for `posted` (a legacy hook never hears a private
 * channel, even its own one had it become private). Bot hooks: the bot's channels (botEventCandidates, BotGate).
 */
export function inHookScope(hook: Pick<OutgoingHook, 'channelId' | 'teamId'>, event: Pick<HookEvent, 'channel'>): boolean {
  if (event.channel.type !== 'O' || event.channel.team_id !== hook.teamId) return false;
  return hook.channelId === '' || event.channel.id === hook.channelId;
}

/** The team hooks that hear this event type (the cached per-team index when the repository has one). */
export async function hooksHearing(deps: Pick<Deps, 'hooks'>, teamId: string, type: string): Promise<readonly OutgoingHook[]> {
  if (deps.hooks.findByTeamAndType) return deps.hooks.findByTeamAndType(teamId, type);
  return (await deps.hooks.findByTeam(teamId)).filter((h) => h.eventTypes.includes(type));
}

/** The live bot hooks (of every team) that hear this event type (the cached index when the repository has one). */
export function botHooksHearing(deps: Pick<Deps, 'hooks'>, type: string): Promise<readonly OutgoingHook[]> {
  if (deps.hooks.findBotHooksByType) return deps.hooks.findBotHooksByType(type);
  return deps.hooks.findBotHooks().then((hooks) => hooks.filter((h) => h.eventTypes.includes(type)));
}

/**
 * Bot hooks that could hear the event from what it says alone (no I/O), as for posts: the hook's channel;
 * a DM with the bot; a group message; a channel of the hook's team. Never the bot's own actions.
 * Membership, the bot's state and the creator's rights are checked afterwards (BotGate).
 */
export function botEventCandidates(hooks: readonly OutgoingHook[], event: Pick<HookEvent, 'channel' | 'actorId'>): OutgoingHook[] {
  const channel = event.channel;
  return botHooksInScope(hooks, { id: channel.id, type: channel.type, name: channel.name, teamId: channel.team_id }).filter((hook) => {
    if (hook.disabledAt !== 0 || hook.deleteAt !== 0 || hook.botUserId === event.actorId) return false;
    if (hook.channelId !== '') return hook.channelId === channel.id;
    if (channel.type === 'D') return channel.name.split('__').includes(hook.botUserId);
    if (channel.type === 'G') return true;
    return channel.team_id === hook.teamId;
  });
}

/**
 * A non-`posted` event → one durable, signed delivery per (event, hook, URL) for each hook of the
 * channel's team that hears the type and has the channel in scope, and each bot hook hearing the type
 * whose bot is a member of the channel now (README "Event types": "else (bot hooks) the bot's channels"),
 * sent as JSON `{type, timestamp, token, data}`; retried, logged and replayable like post deliveries,
 * ordered per channel.
 */
export async function fireEvent(deps: Deps, event: HookEvent): Promise<Delivery[]> {
  if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks) return [];
  const now = deps.clock.now();
  const planned: Planned[] = [];
  if (event.channel.team_id !== '') {
    for (const hook of await hooksHearing(deps, event.channel.team_id, event.type)) {
      if (hook.disabledAt !== 0 || hook.deleteAt !== 0 || hook.botUserId !== '' || !inHookScope(hook, event)) continue;
      planned.push(...eventDeliveries(hook, event, now));
    }
  }
  const bots = botEventCandidates(await botHooksHearing(deps, event.type), event);
  if (bots.length > 0) {
    const gate = await BotGate.open(deps, event.channel.id, bots);
    for (const hook of bots) {
      if (await gate.allows(hook, now)) planned.push(...eventDeliveries(hook, event, now));
    }
  }
  if (planned.length === 0) return [];
  return startDeliveries(deps, planned);
}

/** One delivery per callback URL of the hook for the event (not stored yet). */
export function eventDeliveries(hook: OutgoingHook, event: HookEvent, now: number): Planned[] {
  const body = eventEnvelopeBody(event, hook.token);
  return [...new Set(hook.callbackUrls)].map((url) => ({
    hook,
    delivery: pendingDelivery({
      id: derivedId('event', event.key, hook.id, url),
      hookId: hook.id,
      postId: event.postId,
      channelId: event.channel.id,
      threadRootId: '',
      url,
      contentType: JSON_CONTENT_TYPE,
      body,
      eventType: event.type,
      ordered: isOrderedHook(hook),
    }, now),
  }));
}
