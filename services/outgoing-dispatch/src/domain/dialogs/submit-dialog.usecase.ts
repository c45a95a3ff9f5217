import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { callIntegration } from '../actions/integration-call';
import type { Actor } from '../hooks/hook-access';
import type { Deps } from '../ports';
import { dialogTeamOf } from './dialog-access';
import { checkDialogFileIds } from './dialog-file-ids';
import { readDialogAnswer, type DialogAnswer } from './dialog-answer';
import { dialogUrls } from './dialog-urls';
import { dialogErrors } from './dialog-errors';
import { OPEN_DIALOG_LIFETIME_MS, OPEN_DIALOGS_PER_USER, type OpenDialogRecord } from './open-dialog-record';

export interface SubmitDialogInput {
  /** `refresh` (11.1): a field changed; the request goes to the dialog's `source_url`. Anything else is a submission. */
  readonly type: string;
  readonly url: string;
  readonly callbackId: string;
  readonly state: string;
  readonly channelId: string;
  readonly submission: Readonly<Record<string, unknown>> | null;
  /** 11.10: files of the dialog's `file` elements, uploaded by the caller through `POST /files`. */
  readonly fileIds: readonly string[];
  readonly cancelled: boolean;
}

/** The answer closes the dialog unless it reports errors or continues with another form. */
const closes = (answer: DialogAnswer): boolean => answer.error === undefined && answer.errors === undefined && answer.type !== 'form';

/** The open dialog a submit or a refresh names: a refresh may only go to the dialog's own `source_url`. */
async function namedDialog(deps: Deps, actor: Actor, input: SubmitDialogInput, now: number): Promise<{ open: OpenDialogRecord; url: string }> {
  const refresh = input.type === 'refresh';
  const open = await deps.dialogs.findOpen({ userId: actor.userId, url: refresh ? undefined : input.url, callbackId: input.callbackId, state: input.state }, now);
  if (!open || (refresh && (open.sourceUrl === '' || open.sourceUrl !== input.url))) throw dialogErrors.notOpen(actor.userId);
  return { open, url: refresh ? open.sourceUrl : open.url };
}

/**
 * `POST /actions/dialogs/submit` (wire-2 §3, 11.x): the caller must be able to read the channel and view
 * its team (derived from the channel as 11.10 does); the submission goes only to a dialog that is open for
 * this caller with the same url, callback id and state (a client cannot pick the URL). `type: "refresh"`
 * (11.1) goes to the dialog's `source_url` instead and keeps its type; a `form` answer replaces the open
 * dialog (multi-step and refresh alike). A cancel reaches the integration only when the dialog asked
 * for it (`notify_on_cancel`). The request is signed like outgoing webhooks and sent through the
 * SSRF-guarded client; the integration's `errors`/`error` come back to the client as they are.
 */
export async function submitDialog(deps: Deps, actor: Actor, input: SubmitDialogInput): Promise<DialogAnswer> {
  if (input.url === '') throw commonErrors.invalidBodyParam('url');
  const teamId = await dialogTeamOf(deps, actor, input.channelId);
  const now = deps.clock.now();
  const refresh = input.type === 'refresh';
  const { open, url } = await namedDialog(deps, actor, input, now);
  if (!refresh && input.cancelled && !open.notifyOnCancel) {
    await deps.dialogs.remove(open.id);
    return {};
  }
  const fileIds = refresh || input.cancelled ? [] : await checkDialogFileIds(deps, actor, input.fileIds, input.submission);
  const answerBody = await callIntegration(deps, url, {
    type: refresh ? 'refresh' : 'dialog_submission',
    callback_id: input.callbackId,
    state: input.state,
    user_id: actor.userId,
    channel_id: input.channelId,
    team_id: teamId,
    submission: input.submission,
    ...(fileIds.length > 0 ? { file_ids: fileIds } : {}),
    cancelled: input.cancelled,
  }, now);
  const answer = readDialogAnswer(answerBody);
  if (answer.type === 'form' && answer.form && answer.error === undefined && answer.errors === undefined) await nextForm(deps, open, answer.form, now);
  else if (!refresh && (input.cancelled || closes(answer))) await deps.dialogs.remove(open.id);
  return answer;
}

/** A multi-step dialog: the next form replaces the open one (same URL, its own callback id and state). */
async function nextForm(deps: Deps, open: OpenDialogRecord, form: NonNullable<DialogAnswer['form']>, now: number): Promise<void> {
  await deps.dialogs.remove(open.id);
  await deps.dialogs.insert(
    {
      ...open,
      id: newId(),
      callbackId: form.callback_id,
      state: form.state,
      notifyOnCancel: form.notify_on_cancel,
      ...dialogUrls(form),
      createAt: now,
      expiresAt: now + OPEN_DIALOG_LIFETIME_MS,
    },
    OPEN_DIALOGS_PER_USER,
  );
}
