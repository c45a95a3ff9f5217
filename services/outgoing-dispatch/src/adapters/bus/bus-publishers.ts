import { envelope, ephemeralPostMessage, Topics, type OpenDialogEvent, type WirePost } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';
import type { ClientEvents, HookChanges } from '../../domain/ports';

/** The message on outgoing.deliveries that tells every replica a hook changed (its team's cached hooks go). */
export interface HookChangedMessage {
  readonly hook_id: string;
  readonly team_id: string;
}

export const HOOK_CHANGED_MESSAGE_TYPE = 'hook.changed';

/**
 * Hook changes on outgoing.deliveries (keyed by hook id), read by every replica's broadcast group. The
 * topic carried `delivery.ready` messages before ADR 0013; a replica of such a version reads this message
 * as one without delivery ids and skips it.
 */
export class BusHookChanges implements HookChanges {
  public constructor(private readonly bus: EventPublisher, private readonly logger: Logger) {}

  public async hookChanged(hook: { readonly id: string; readonly teamId: string }): Promise<void> {
    try {
      await this.bus.publish(Topics.outgoingDeliveries, [{ key: hook.id, value: envelope<string, HookChangedMessage>(HOOK_CHANGED_MESSAGE_TYPE, { hook_id: hook.id, team_id: hook.teamId }) }]);
    } catch (error) {
      this.logger.warn('hook change not announced; other replicas use their cached hooks of the team until they expire', { hook_id: hook.id, error: String(error) });
    }
  }
}

/** realtime.events, keyed by the target user: every realtime replica delivers to that user's sockets. */
export class BusClientEvents implements ClientEvents {
  public constructor(private readonly bus: EventPublisher) {}

  public async ephemeralPost(userId: string, post: WirePost): Promise<void> {
    await this.bus.publish(Topics.realtimeEvents, [ephemeralPostMessage(envelope('ephemeral.post', { user_id: userId, post }))]);
  }

  public async openDialog(userId: string, dialog: { readonly trigger_id: string; readonly url: string; readonly dialog: Readonly<Record<string, unknown>> }): Promise<void> {
    const event: OpenDialogEvent = envelope('dialog.open', { user_id: userId, dialog });
    await this.bus.publish(Topics.realtimeEvents, [{ key: userId, value: event }]);
  }
}
