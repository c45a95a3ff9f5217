import { ADMIN_OUTGOING_EVENT_TYPES } from '@switchyard/contracts/wire';
import { isSystemAdmin } from '@switchyard/permissions';
import { isOrderedHook, type Delivery, type OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { derivedId } from '../secrets';
import { startDeliveries, type Planned } from '../firing/start-deliveries';
import { eventEnvelopeBody } from '../firing/hook-event';
import { JSON_CONTENT_TYPE } from '../firing/outgoing-payload';
import { hooksHearing } from '../firing/fire-events.usecase';
import { disableWhenDeadPastThreshold } from '../delivery/dead-threshold';

/** The system bot's username (users-bots creates it at start). */
export const SYSTEM_BOT_USERNAME = 'switchyard';
const HOUR_MS = 3_600_000;
const SYSTEM_EVENT_TYPES: readonly string[] = ADMIN_OUTGOING_EVENT_TYPES;

/** This instance's last alert about each hook: when, its post, its text, and whether it named a disable. */
interface SentAlert {
  readonly at: number;
  readonly postId: string;
  readonly message: string;
  readonly disabled: boolean;
}
const lastAlert = new Map<string, SentAlert>();

/** `scheme://host[:port]` of a callback URL: nothing more of it (no path, query, credentials). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid-url';
  }
}

function title(hook: OutgoingHook): string {
  return hook.displayName !== '' ? `"${hook.displayName}"` : 'without a display name';
}

/**
 * A DM from the `switchyard` bot to the hook's creator, at most one per hook per hour: this instance
 * remembers its last alert, and the post id is derived from (hook, hour), so posts stores one per hour even
 * when several dispatchers alert at once. A disable within the hour of a dead-delivery DM is appended to
 * that DM (edited), so the creator learns of it without a second message. Never throws (an alert must not
 * change a delivery's outcome).
 */
async function directMessage(deps: Deps, hook: OutgoingHook, message: string, disabled: boolean): Promise<void> {
  const now = deps.clock.now();
  const last = lastAlert.get(hook.id);
  try {
    if (last && now - last.at < HOUR_MS) {
      if (!disabled || last.disabled) return;
      const appended = `${last.message}\n\n${message}`;
      lastAlert.set(hook.id, { ...last, message: appended, disabled: true });
      await deps.platform.updatePost(last.postId, { message: appended });
      return;
    }
    const postId = derivedId('hook-alert', hook.id, String(Math.floor(now / HOUR_MS)));
    lastAlert.delete(hook.id);
    lastAlert.set(hook.id, { at: now, postId, message, disabled });
    if (lastAlert.size > 10_000) lastAlert.delete(lastAlert.keys().next().value as string);
    const [bot] = await deps.platform.usersByUsernames([SYSTEM_BOT_USERNAME]);
    if (!bot || !bot.isBot) return;
    const dm = await deps.platform.directChannel(bot.id, hook.creatorId);
    await deps.postCommands.createPosts([
      { post: { id: postId, channel_id: dm.id, user_id: bot.id, message, type: '', props: { from_bot: 'true' }, root_id: '', create_at: now }, source: 'system' },
    ]);
  } catch (error) {
    deps.logger.warn('outgoing hook alert not sent', { hook_id: hook.id, error: String(error) });
  }
}

/**
 * `integration_disabled` / `delivery_dead` to the hooks of the same team that hear them and were created by a
 * system admin (checked now). Events about such deliveries themselves raise none (no loop).
 */
async function fireSystemEvent(deps: Deps, hook: OutgoingHook, type: string, key: string, data: Record<string, unknown>): Promise<void> {
  try {
    const listeners = (await hooksHearing(deps, hook.teamId, type)).filter((h) => h.disabledAt === 0 && h.deleteAt === 0);
    if (listeners.length === 0) return;
    const creators = new Map((await deps.platform.users([...new Set(listeners.map((h) => h.creatorId))])).map((u) => [u.id, u]));
    const now = deps.clock.now();
    const planned: Planned[] = [];
    for (const listener of listeners) {
      const creator = creators.get(listener.creatorId);
      if (!creator || creator.deleteAt !== 0 || !isSystemAdmin(creator.roles)) continue;
      const body = eventEnvelopeBody({ type, time: now, data }, listener.token);
      for (const url of new Set(listener.callbackUrls)) {
        const delivery: Delivery = {
          id: derivedId('system-event', key, listener.id, url), hookId: listener.id, postId: '', channelId: '', threadRootId: '', url, contentType: JSON_CONTENT_TYPE, body,
          status: 'pending', attempts: 0, tries: 0, lastStatusCode: 0, lastError: '', lastLatencyMs: 0, createAt: now, updateAt: now, nextAttemptAt: now, claimedBy: '', claimUntil: 0, eventType: type,
          ordered: isOrderedHook(listener),
        };
        planned.push({ hook: listener, delivery });
      }
    }
    await startDeliveries(deps, planned);
  } catch (error) {
    deps.logger.warn('outgoing hook system event not fired', { hook_id: hook.id, type, error: String(error) });
  }
}

/** The hook was disabled (a 410 answer, or its creator lost the right to manage its bot). */
export async function hookDisabledAlert(deps: Deps, hook: OutgoingHook, reason: string, url: string): Promise<void> {
  const origin = originOf(url);
  await directMessage(deps, hook, `Your outgoing webhook ${title(hook)} (id \`${hook.id}\`) was disabled: ${reason}. Callback origin: ${origin}. Enable it again once it is fixed.`, true);
  await fireSystemEvent(deps, hook, 'integration_disabled', `disabled:${hook.id}:${deps.clock.now()}`, { hook_id: hook.id, hook_type: 'outgoing', reason, origin });
}

/** One of the hook's deliveries went `dead` (retries exhausted, or its address is refused). */
export async function deliveryDeadAlert(deps: Deps, hook: OutgoingHook, delivery: Delivery, dead: { attempts: number; lastStatusCode: number; lastError: string }): Promise<void> {
  const eventType = delivery.eventType ?? 'posted';
  if (SYSTEM_EVENT_TYPES.includes(eventType)) return;
  const origin = originOf(delivery.url);
  const reason = dead.lastStatusCode > 0 ? `the receiver answered ${dead.lastStatusCode}` : dead.lastError.split('\n')[0] ?? 'no answer';
  await directMessage(deps, hook, `A delivery of your outgoing webhook ${title(hook)} (id \`${hook.id}\`) failed for good after ${dead.attempts} attempts: ${reason}. Callback origin: ${origin}. Delivery \`${delivery.id}\` can be sent again from the delivery log.`, false);
  await fireSystemEvent(deps, hook, 'delivery_dead', `dead:${delivery.id}:${dead.attempts}`, {
    hook_id: hook.id, delivery_id: delivery.id, event_type: eventType, attempts: dead.attempts, last_status_code: dead.lastStatusCode, last_error: dead.lastError, origin,
  });
}

/**
 * A delivery went dead: the hook is disabled when its newest deliveries are now all dead
 * (`DisableAfterDeadDeliveries`), and its creator told. The disable alert goes first, so the hour's DM names
 * the disable (the dead delivery's DM is then skipped by the one-per-hour rule); both events fire. Never throws.
 */
export async function afterDeadDelivery(deps: Deps, hook: OutgoingHook, delivery: Delivery, dead: { attempts: number; lastStatusCode: number; lastError: string }): Promise<void> {
  try {
    if (await disableWhenDeadPastThreshold(deps, hook)) {
      const threshold = deps.liveConfig.current().DeliverySettings.DisableAfterDeadDeliveries;
      await hookDisabledAlert(deps, hook, `its last ${threshold} deliveries failed for good`, delivery.url);
    }
  } catch (error) {
    deps.logger.warn('dead deliveries threshold not checked', { hook_id: hook.id, error: String(error) });
  }
  await deliveryDeadAlert(deps, hook, delivery, dead);
}
