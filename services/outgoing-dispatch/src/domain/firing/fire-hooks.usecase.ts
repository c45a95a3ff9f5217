import type { PostEventPayload } from '@switchyard/contracts';
import { pendingDelivery } from '../delivery/pending-delivery';
import { isOrderedHook, type Delivery } from '../entities';
import { firstWordOf } from '../hooks/hook-rules';
import { matchingPostedHooks } from './posted-index';
import type { Deps } from '../ports';
import { derivedId } from '../secrets';
import { outgoingPayloadBody, requestContentType } from './outgoing-payload';
import { startDeliveries, type Planned } from './start-deliveries';
import { hooksHearing } from './fire-events.usecase';

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
 * On `post.created`: one durable delivery per (post, hook, callback URL) for each matching hook, stored
 * already claimed by this instance and attempted here at once (ADR 0013; startDeliveries). Delivery ids
 * are derived from (post, hook, URL): a redelivered event finds the same records, stores nothing new and
 * attempts only what it stored. Resolves once every attempt has started; the deliveries this call stored.
 */
export async function fireHooks(deps: Deps, event: PostEventPayload): Promise<Delivery[]> {
  return startDeliveries(deps, await plan(deps, event));
}

/** The deliveries the post fires (not stored, not claimed yet). */
async function plan(deps: Deps, event: PostEventPayload): Promise<Planned[]> {
  if (!deps.liveConfig.current().ServiceSettings.EnableOutgoingWebhooks || !mayFire(event) || !event.team) return [];
  const hooks = await hooksHearing(deps, event.team.id, 'posted');
  if (hooks.length === 0) return [];
  const firstWord = firstWordOf(event.post.message);
  const now = deps.clock.now();
  const planned: Planned[] = [];
  for (const { hook, triggerWord } of matchingPostedHooks(hooks, event.channel.id, firstWord)) {
    const body = outgoingPayloadBody(hook, event, triggerWord);
    for (const url of new Set(hook.callbackUrls)) {
      const delivery: Delivery = pendingDelivery({
        id: derivedId('delivery', event.post.id, hook.id, url),
        hookId: hook.id,
        postId: event.post.id,
        channelId: event.channel.id,
        threadRootId: event.post.root_id !== '' ? event.post.root_id : event.post.id,
        url,
        contentType: requestContentType(hook),
        body,
        ordered: isOrderedHook(hook),
      }, now);
      planned.push({ delivery, hook });
    }
  }
  return planned;
}
