import { commonErrors } from '@switchyard/errors';
import type { Deps } from '../ports';
import { canonicalDialog } from './canonical-dialog';
import { dialogProblems } from './dialog-problems';
import { dialogUrls } from './dialog-urls';
import { OPEN_DIALOG_LIFETIME_MS, OPEN_DIALOGS_PER_USER } from './open-dialog-record';

export interface OpenDialogInput {
  readonly triggerId: string;
  readonly url: string;
  /** The dialog after the route's type checks (the reference's JSON decode). */
  readonly dialog: unknown;
}

/**
 * `POST /actions/dialogs/open`: authorised by the signed trigger id (valid for
 * `OutgoingIntegrationRequestsTimeout` seconds). The dialog is checked as the reference's
 * Dialog.IsValid; like the newest reference, problems are logged and the dialog opens anyway. The dialog
 * is remembered for its user (what `dialogs/submit` may call), then the user's WebSocket connections get
 * `open_dialog` with the client trigger id and the dialog in the reference's encoding (realtime.events).
 */
export async function openDialog(deps: Deps, input: OpenDialogInput): Promise<{ userId: string; clientTriggerId: string }> {
  if (input.url === '') throw commonErrors.invalidBodyParam('url');
  const now = deps.clock.now();
  const maxAgeMs = deps.liveConfig.current().ServiceSettings.OutgoingIntegrationRequestsTimeout * 1000;
  const decoded = deps.triggerIds.verify(input.triggerId, now, maxAgeMs);
  const dialog = canonicalDialog(input.dialog);
  const problems = dialogProblems(dialog);
  if (problems.length > 0) deps.logger.warn('Interactive dialog is invalid', { user_id: decoded.userId, problems });
  await deps.dialogs.insert(
    {
      id: decoded.clientTriggerId,
      userId: decoded.userId,
      url: input.url,
      callbackId: dialog.callback_id,
      state: dialog.state,
      notifyOnCancel: dialog.notify_on_cancel,
      ...dialogUrls(dialog),
      createAt: now,
      expiresAt: now + OPEN_DIALOG_LIFETIME_MS,
    },
    OPEN_DIALOGS_PER_USER,
  );
  await deps.clientEvents.openDialog(decoded.userId, { trigger_id: decoded.clientTriggerId, url: input.url, dialog: { ...dialog } });
  return decoded;
}
