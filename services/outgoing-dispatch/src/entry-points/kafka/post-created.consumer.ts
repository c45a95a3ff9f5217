import { postEventPayloadSchema, Topics, type PostEventPayload } from '@switchyard/contracts';
import type { EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import type { OutgoingHook } from '../../domain/entities';
import { botHooksHearing, hooksHearing } from '../../domain/firing/fire-events.usecase';
import { botCandidates, fireBotHooks } from '../../domain/firing/fire-bot-hooks.usecase';
import { fireHooks } from '../../domain/firing/fire-hooks.usecase';
import { matchingPostedHooks } from '../../domain/firing/posted-index';
import { firstWordOf } from '../../domain/hooks/hook-rules';
import { hookEventsHandler } from './hook-events.consumer';
import type { Deps } from '../../domain/ports';

export const POSTS_EVENTS_GROUP = 'outgoing-dispatch';
/**
 * Partitions of posts.events (and of outgoing.deliveries) one dispatcher handles at once (both have 6; a
 * channel's posts stay in order on its partition). Firing waits on MongoDB and Kafka round trips, so one
 * partition at a time left a dispatcher idle on I/O with a backlog on its other partitions (bench scale-out).
 */
export const DISPATCH_PARTITIONS_AT_ONCE = 6;

/**
 * Fields that rule a post out before anything else is looked at (mayFire's first test): most posts.events
 * traffic (webhook posts, system messages) stops here without validating the whole payload.
 */
function cannotFire(payload: unknown): boolean {
  const p = payload as { source?: unknown; from_webhook?: unknown; is_system?: unknown } | null;
  if (p === null || typeof p !== 'object' || p.is_system === true) return true;
  if (p.source === 'command') return false;
  return p.source !== 'api' || p.from_webhook === true;
}

/** The team's id when the post is in an open channel of a team: where hooks could fire at all. */
function teamOf(payload: unknown): string | undefined {
  const p = payload as { team?: { id?: unknown } | null; channel?: { type?: unknown } } | null;
  const teamId = p?.team?.id;
  return p?.channel?.type === 'O' && typeof teamId === 'string' ? teamId : undefined;
}

/**
 * Whether a live hook's channel and trigger words could match the post, from the raw payload: a post that
 * matches no hook (nearly all of them in a team with hooks) stops before its payload is validated.
 */
function mayMatchOne(hooks: readonly OutgoingHook[], payload: unknown): boolean {
  const p = payload as { channel?: { id?: unknown }; post?: { message?: unknown } } | null;
  const channelId = p?.channel?.id;
  const message = p?.post?.message;
  if (hooks.length === 0 || typeof channelId !== 'string' || typeof message !== 'string') return hooks.length > 0;
  return matchingPostedHooks(hooks, channelId, firstWordOf(message)).length > 0;
}

/** Whether a bot hook could hear the post (botCandidates on the raw payload; the list of bot hooks is cached). */
async function mayReachBotHook(deps: Deps, payload: unknown): Promise<boolean> {
  const hooks = await botHooksHearing(deps, 'posted');
  if (hooks.length === 0) return false;
  const p = payload as { channel?: { id?: unknown; type?: unknown; name?: unknown; team_id?: unknown }; post?: { message?: unknown }; author?: { id?: unknown } } | null;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const view = { channelId: text(p?.channel?.id), channelType: text(p?.channel?.type), channelName: text(p?.channel?.name), teamId: text(p?.channel?.team_id), authorId: text(p?.author?.id), message: text(p?.post?.message) };
  return botCandidates(hooks, view).length > 0;
}

/**
 * posts.events → fireHooks (and fireBotHooks) for each `post.created`. Invalid messages are logged and skipped. A post that
 * no hook of its team could match (the team's hooks come from the cache) stops before the payload is validated.
 */
export function postCreatedHandler(deps: Deps): MessageHandler {
  return async (message) => {
    const value = message.value as { type?: unknown; payload?: unknown } | null;
    if (value?.type !== 'post.created' || cannotFire(value.payload)) return;
    if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks) return;
    const teamId = teamOf(value.payload);
    const legacy = teamId !== undefined && mayMatchOne(await hooksHearing(deps, teamId, 'posted'), value.payload);
    const bots = await mayReachBotHook(deps, value.payload);
    if (!legacy && !bots) return;
    const { error, value: payload } = postEventPayloadSchema.validate(value.payload);
    if (error) {
      deps.logger.warn('invalid post.created event skipped', { error: error.message, offset: message.offset });
      return;
    }
    if (legacy) await fireHooks(deps, payload as PostEventPayload);
    if (bots) await fireBotHooks(deps, payload as PostEventPayload);
  };
}

/** posts.events: `post.created` fires `posted` hooks (as before), the other types the hooks that hear them. */
export function postsEventsHandler(deps: Deps): MessageHandler {
  const created = postCreatedHandler(deps);
  const others = hookEventsHandler(deps);
  return async (message) => {
    const type = (message.value as { type?: unknown } | null)?.type;
    await (type === 'post.created' ? created(message) : others(message));
  };
}

export function subscribePostsEvents(bus: EventBus, deps: Deps): Promise<Subscription> {
  return bus.subscribe({ groupId: POSTS_EVENTS_GROUP, topics: [Topics.postsEvents], handler: postsEventsHandler(deps), partitionsAtOnce: DISPATCH_PARTITIONS_AT_ONCE });
}
