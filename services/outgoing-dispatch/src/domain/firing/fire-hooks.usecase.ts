import type { PostEventPayload } from '@switchyard/contracts';
import type { Delivery } from '../entities';
import { firstWordOf, matchHook } from '../hooks/hook-rules';
import type { Deps } from '../ports';
import { derivedId } from '../secrets';
import { outgoingPayloadBody, requestContentType } from './outgoing-payload';

/**
 * How long the schedulers leave a new delivery to its outgoing.deliveries message. Short, because a lost
 * message (a consumer group that starts at the end of a partition) waits this long for its first attempt.
 */
export const QUEUE_FIRST_MS = 5_000;

/** Whether a created post may fire outgoing hooks at all (mattermost-wire.md §10 "When hooks fire"; wire-2 §2 for command answers). */
export function mayFire(event: PostEventPayload): boolean {
  // A slash command's in_channel answer fires hooks although it carries from_webhook (the reference posts it with TriggerWebhooks).
  const command = event.source === 'command';
  if ((event.source !== 'api' && !command) || (event.from_webhook && !command) || event.is_system) return false;
  if (event.post.type.startsWith('system_') || (event.post.props.from_webhook === 'true' && !command)) return false;
  if (event.channel.type !== 'O' || event.channel.delete_at !== 0) return false;
  return event.team !== null && event.channel.team_id === event.team.id;
}

/**
 * On `post.created`: one durable delivery per (post, hook, callback URL) for each matching hook, then a
 * message per delivery on outgoing.deliveries. Delivery ids are derived from (post, hook, URL), so a
 * redelivered event finds the same records and creates nothing new.
 */
export async function fireHooks(deps: Deps, event: PostEventPayload): Promise<Delivery[]> {
  if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks || !mayFire(event) || !event.team) return [];
  const hooks = await deps.hooks.findByTeam(event.team.id);
  if (hooks.length === 0) return [];
  const firstWord = firstWordOf(event.post.message);
  const now = deps.clock.now();
  // The queue makes the first attempt (claim with `untried`); the schedulers take a delivery only once it
  // is due, QUEUE_FIRST_MS later, i.e. when its queue message was lost or is far behind.
  const dueIfQueueLost = now + QUEUE_FIRST_MS;
  const deliveries: Delivery[] = [];
  for (const hook of hooks) {
    if (hook.disabledAt !== 0) continue;
    const match = matchHook(hook, event.channel.id, firstWord);
    if (!match) continue;
    const body = outgoingPayloadBody(hook, event, match.triggerWord);
    for (const url of new Set(hook.callbackUrls)) {
      deliveries.push({
        id: derivedId('delivery', event.post.id, hook.id, url),
        hookId: hook.id,
        postId: event.post.id,
        channelId: event.channel.id,
        threadRootId: event.post.root_id !== '' ? event.post.root_id : event.post.id,
        url,
        contentType: requestContentType(hook),
        body,
        status: 'pending',
        attempts: 0,
        tries: 0,
        lastStatusCode: 0,
        lastError: '',
        lastLatencyMs: 0,
        createAt: now,
        updateAt: now,
        nextAttemptAt: dueIfQueueLost,
        claimedBy: '',
        claimUntil: 0,
      });
    }
  }
  if (deliveries.length === 0) return [];
  await deps.deliveries.insertAllIfAbsent(deliveries);
  try {
    await deps.queue.enqueue(deliveries);
  } catch (error) {
    // The records are durable: the scheduler attempts them when due even if this message never goes out.
    deps.logger.warn('outgoing.deliveries publish failed; the scheduler will pick the deliveries up', { error: String(error), count: deliveries.length });
    deps.wakeAt(dueIfQueueLost);
  }
  return deliveries;
}
