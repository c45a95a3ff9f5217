import { Router } from 'express';
import { rawBody, sendJson } from '@switchyard/http-kit';
import { commonErrors } from '@switchyard/errors';
import { Joi, validate } from '@switchyard/validation';
import { handleCommandWebhook } from '../../domain/commands/command-webhook.usecase';
import { executeCommand } from '../../domain/commands/execute-command.usecase';
import { actorOf, requestDeps, type HttpContext } from './http-context';

const text = Joi.string().allow('').max(65536);
/** CommandArgs as clients send them; a body that does not decode is 400 invalid_body_param `command_args`. */
const executeBody = Joi.object({ command: text, channel_id: text, team_id: text, root_id: text, parent_id: text }).unknown(true).required();

/** `POST /commands/execute` and the response_url route `POST /hooks/commands/{id}`. */
export function commandExecuteRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/commands/execute', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = validate<{ command?: string; channel_id?: string; team_id?: string; root_id?: string; parent_id?: string }>(executeBody, req.body, {
      onError: (_key, detail) => commonErrors.invalidBodyParam('command_args', detail),
    });
    const response = await executeCommand(requestDeps(deps, req), actor, {
      command: body.command ?? '',
      channelId: body.channel_id ?? '',
      teamId: body.team_id ?? '',
      rootId: body.root_id || body.parent_id || '',
    });
    sendJson(res, 200, response);
  });

  // No session: the unguessable id is the credential. The body is read raw (JSON or plain text by Content-Type).
  router.post('/hooks/commands/:id', rawBody(() => deps.liveConfig.current().ServiceSettings.MaximumPayloadSizeBytes), async (req, res) => {
    await handleCommandWebhook(requestDeps(deps, req), String(req.params.id ?? ''), req.headers['content-type'] ?? '', req.rawBody?.toString('utf8') ?? '');
    res.status(200).type('text/plain').send('ok');
  });

  return router;
}
