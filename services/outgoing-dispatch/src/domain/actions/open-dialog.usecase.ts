import { commonErrors } from '@switchyard/errors';
import type { Deps } from '../ports';

export interface OpenDialogInput {
  readonly triggerId: string;
  readonly url: string;
  readonly dialog: Record<string, unknown> | undefined;
}

/**
 * `POST /actions/dialogs/open`: authorised by the signed trigger id (valid for
 * `OutgoingIntegrationRequestsTimeout` seconds). An invalid dialog is only logged, as the newest reference.
 * The user encoded in the trigger id gets `open_dialog` on their WebSocket connections, with the client
 * trigger id (realtime.events).
 */
export async function openDialog(deps: Deps, input: OpenDialogInput): Promise<{ userId: string; clientTriggerId: string }> {
  if (input.url === '') throw commonErrors.invalidBodyParam('url');
  const maxAgeMs = deps.liveConfig.current().ServiceSettings.OutgoingIntegrationRequestsTimeout * 1000;
  const decoded = deps.triggerIds.verify(input.triggerId, deps.clock.now(), maxAgeMs);
  const title = input.dialog?.title;
  if (typeof title !== 'string' || title.length < 1 || title.length > 24) {
    deps.logger.warn('interactive dialog is invalid (title must be 1-24 characters)', { user_id: decoded.userId });
  }
  await deps.clientEvents.openDialog(decoded.userId, { trigger_id: decoded.clientTriggerId, url: input.url, dialog: input.dialog ?? {} });
  return decoded;
}
