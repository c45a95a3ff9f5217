import { fileAttachedPayloadSchema, postEventPayloadSchema, reactionEventPayloadSchema, Topics, type ChannelsEventPayload, type FileAttachedPayload, type PostEventPayload, type ReactionEventPayload } from '@switchyard/contracts';
import type { EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import { botHooksHearing, fireEvent, hooksHearing } from '../../domain/firing/fire-events.usecase';
import { channelHookEvent, fileHookEvent, postHookEvent, reactionHookEvent, type HookEvent } from '../../domain/firing/hook-event';
import type { Deps } from '../../domain/ports';
import { botHooksInScope } from '../../domain/firing/bot-index';

/** channels.events: channel created, members added and removed (hooks' `event_types`). */
export const CHANNELS_EVENTS_GROUP = 'outgoing-dispatch-events';

const POST_EVENT_TYPES: Readonly<Record<string, string>> = {
  'post.updated': 'post_edited',
  'post.deleted': 'post_deleted',
  'reaction.added': 'reaction_added',
  'reaction.removed': 'reaction_removed',
  'file.attached': 'file_uploaded',
  'channel.created': 'channel_created',
  'channel.member_added': 'channel_member_added',
  'channel.member_removed': 'channel_member_removed',
};

interface BusValue {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly time?: unknown;
  readonly payload?: unknown;
}

/**
 * Whether any hook could hear it, from the channel's team alone (the per-team, per-type hook index) or
 * a bot hook hearing the type (DMs and group messages have no team): most events stop here without
 * validating the payload.
 */
async function anyoneListens(deps: Deps, wireType: string, payload: unknown): Promise<boolean> {
  const channel = (payload as { channel?: { id?: unknown; type?: unknown; name?: unknown; team_id?: unknown } } | null)?.channel;
  const teamId = channel?.team_id;
  if (typeof teamId !== 'string') return false;
  if (teamId !== '' && (await hooksHearing(deps, teamId, wireType)).length > 0) return true;
  const bots = await botHooksHearing(deps, wireType);
  if (bots.length === 0) return false;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return botHooksInScope(bots, { id: text(channel?.id), type: text(channel?.type), name: text(channel?.name), teamId }).length > 0;
}

/** The hook event of a bus message, or undefined when it is not one (or invalid: logged). */
function hookEventOf(deps: Deps, value: BusValue, offset: string): HookEvent | undefined {
  const type = String(value.type);
  const id = typeof value.id === 'string' ? value.id : '';
  const time = typeof value.time === 'number' ? value.time : deps.clock.now();
  if (type === 'post.updated' || type === 'post.deleted') {
    const { error, value: p } = postEventPayloadSchema.validate(value.payload);
    if (!error) return postHookEvent(id, time, type, p as PostEventPayload);
    deps.logger.warn('invalid posts event skipped', { type, error: error.message, offset });
    return undefined;
  }
  if (type === 'reaction.added' || type === 'reaction.removed') {
    const { error, value: p } = reactionEventPayloadSchema.validate(value.payload);
    if (!error) return reactionHookEvent(id, time, type, p as ReactionEventPayload);
    deps.logger.warn('invalid reaction event skipped', { type, error: error.message, offset });
    return undefined;
  }
  if (type === 'file.attached') {
    const { error, value: p } = fileAttachedPayloadSchema.validate(value.payload);
    if (!error) return fileHookEvent(id, time, p as FileAttachedPayload);
    deps.logger.warn('invalid file event skipped', { type, error: error.message, offset });
    return undefined;
  }
  const p = value.payload as ChannelsEventPayload | null;
  if (p === null || typeof p !== 'object' || typeof p.channel?.id !== 'string') return undefined;
  return channelHookEvent(id, time, type, p);
}

/** A bus message of posts.events or channels.events other than post.created → fireEvent. */
export function hookEventsHandler(deps: Deps): MessageHandler {
  return async (message) => {
    const value = message.value as BusValue | null;
    const wireType = typeof value?.type === 'string' ? POST_EVENT_TYPES[value.type] : undefined;
    if (!value || wireType === undefined || value.id === undefined) return;
    if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks) return;
    if (!(await anyoneListens(deps, wireType, value.payload))) return;
    const event = hookEventOf(deps, value, String(message.offset));
    if (event) await fireEvent(deps, event);
  };
}

export function subscribeChannelsEvents(bus: EventBus, deps: Deps): Promise<Subscription> {
  return bus.subscribe({ groupId: CHANNELS_EVENTS_GROUP, topics: [Topics.channelsEvents], handler: hookEventsHandler(deps) });
}
