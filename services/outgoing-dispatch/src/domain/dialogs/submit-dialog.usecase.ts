import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { actionErrors } from '../errors';
import { upstreamAnswerError } from '../actions/upstream-answer';
import type { Actor } from '../hooks/hook-access';
import { USER_AGENT, integrationTimeoutMs } from '../delivery/attempt-delivery.usecase';
import type { Deps } from '../ports';
import { signedHeaders } from '../secrets';
import { integrationSigners } from '../signing/integration-signers';
import { canReadChannel, canViewTeam } from './dialog-access';
import { readDialogAnswer, type DialogAnswer } from './dialog-answer';
import { dialogErrors } from './dialog-errors';
import { OPEN_DIALOG_LIFETIME_MS, OPEN_DIALOGS_PER_USER, type OpenDialogRecord } from './open-dialog-record';

export interface SubmitDialogInput {
  readonly url: string;
  readonly callbackId: string;
  readonly state: string;
  readonly channelId: string;
  readonly teamId: string;
  readonly submission: Readonly<Record<string, unknown>> | null;
  readonly cancelled: boolean;
}

/** The answer closes the dialog unless it reports errors or continues with another form. */
const closes = (answer: DialogAnswer): boolean => answer.error === undefined && answer.errors === undefined && answer.type !== 'form';

/**
 * `POST /actions/dialogs/submit` (wire-2 §3): the caller must be able to read the channel and view the
 * team; the submission goes only to a dialog that is open for this caller with the same url, callback id
 * and state (a client cannot pick the URL). A cancel reaches the integration only when the dialog asked
 * for it (`notify_on_cancel`). The request is signed like outgoing webhooks and sent through the
 * SSRF-guarded client; the integration's `errors`/`error` come back to the client as they are.
 */
export async function submitDialog(deps: Deps, actor: Actor, input: SubmitDialogInput): Promise<DialogAnswer> {
  if (input.url === '') throw commonErrors.invalidBodyParam('url');
  if (!(await canReadChannel(deps, actor, input.channelId))) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  if (!(await canViewTeam(deps, actor, input.teamId))) throw commonErrors.permissions(actor.userId, Permissions.viewTeam);
  const now = deps.clock.now();
  const open = await deps.dialogs.findOpen({ userId: actor.userId, url: input.url, callbackId: input.callbackId, state: input.state }, now);
  if (!open) throw dialogErrors.notOpen(actor.userId);
  if (input.cancelled && !open.notifyOnCancel) {
    await deps.dialogs.remove(open.id);
    return {};
  }
  const body = JSON.stringify({
    type: 'dialog_submission',
    callback_id: input.callbackId,
    state: input.state,
    user_id: actor.userId,
    channel_id: input.channelId,
    team_id: input.teamId,
    submission: input.submission,
    cancelled: input.cancelled,
  });
  const result = await deps.client.post({
    url: open.url,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': USER_AGENT, ...signedHeaders(newId(), Math.floor(now / 1000), body, integrationSigners(deps.liveConfig.current())) },
    body,
    timeoutMs: integrationTimeoutMs(deps),
  });
  const upstreamError = upstreamAnswerError(result, now);
  if (upstreamError || result.kind !== 'response') throw upstreamError ?? actionErrors.integration('err=no answer');
  const answer = readDialogAnswer(result.body);
  if (answer.type === 'form' && answer.form && answer.error === undefined && answer.errors === undefined) await nextForm(deps, open, answer.form, now);
  else if (input.cancelled || closes(answer)) await deps.dialogs.remove(open.id);
  return answer;
}

/** A multi-step dialog: the next form replaces the open one (same URL, its own callback id and state). */
async function nextForm(deps: Deps, open: OpenDialogRecord, form: NonNullable<DialogAnswer['form']>, now: number): Promise<void> {
  await deps.dialogs.remove(open.id);
  await deps.dialogs.insert(
    { ...open, id: newId(), callbackId: form.callback_id, state: form.state, notifyOnCancel: form.notify_on_cancel, createAt: now, expiresAt: now + OPEN_DIALOG_LIFETIME_MS },
    OPEN_DIALOGS_PER_USER,
  );
}
