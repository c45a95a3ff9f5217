import { Router, type Request, type RequestHandler } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { parseJsonBody, validate } from '@switchyard/validation';
import { openDialog } from '../../domain/dialogs/open-dialog.usecase';
import { lookupDialog } from '../../domain/dialogs/lookup-dialog.usecase';
import { submitDialog } from '../../domain/dialogs/submit-dialog.usecase';
import { openDialogBody, submitDialogBody, type SubmitDialogBody } from './dialogs.schemas';
import { actorOf, requestDeps, type HttpContext } from './http-context';

/** The body as the reference's JSON decode sees it: no body at all is a decode error, `null` an empty struct. */
function decoded<T>(req: Request, schema: Parameters<typeof validate>[0]): T {
  if (req.body === undefined) throw commonErrors.invalidBodyParam('dialog', 'EOF');
  return (validate(schema, req.body, { onError: (key, message) => commonErrors.invalidBodyParam('dialog', `${key}: ${message}`) }) ?? {}) as T;
}

/** JSON that does not parse is the reference's decode error on "dialog" too. */
const dialogJson: RequestHandler = (req, _res, next) => {
  try {
    const raw = (req as Request & { rawBody?: Buffer }).rawBody;
    req.body = raw && raw.length > 0 ? parseJsonBody(raw, 'dialog') : undefined;
    next();
  } catch (error) {
    next(error);
  }
};

/** Interactive dialogs (wire-2 §3). */
export function dialogsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  const withBody = [...ctx.withBody.slice(0, 1), dialogJson];

  // No session: the signed trigger id is the authorisation.
  router.post('/api/v4/actions/dialogs/open', ...withBody, async (req, res) => {
    const body = decoded<{ trigger_id?: string | null; url?: string | null; dialog?: unknown }>(req, openDialogBody);
    await openDialog(requestDeps(deps, req), { triggerId: body.trigger_id ?? '', url: body.url ?? '', dialog: body.dialog });
    sendStatusOk(res);
  });

  router.post('/api/v4/actions/dialogs/submit', ...withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = decoded<SubmitDialogBody>(req, submitDialogBody);
    const answer = await submitDialog(requestDeps(deps, req), actor, {
      type: body.type ?? '',
      url: body.url ?? '',
      callbackId: body.callback_id ?? '',
      state: body.state ?? '',
      channelId: body.channel_id ?? '',
      submission: body.submission ?? null,
      fileIds: body.file_ids ?? [],
      cancelled: body.cancelled === true,
    });
    sendJson(res, 200, answer);
  });

  router.post('/api/v4/actions/dialogs/lookup', ...withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = decoded<SubmitDialogBody>(req, submitDialogBody);
    const answer = await lookupDialog(deps, actor, {
      url: body.url ?? '',
      callbackId: body.callback_id ?? '',
      state: body.state ?? '',
      channelId: body.channel_id ?? '',
      submission: body.submission ?? null,
    });
    sendJson(res, 200, answer);
  });

  return router;
}
