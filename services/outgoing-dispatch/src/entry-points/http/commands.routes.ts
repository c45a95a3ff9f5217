import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { createCommand } from '../../domain/commands/create-command.usecase';
import { listAutocompleteCommands, listCommands } from '../../domain/commands/list-commands.usecase';
import { deleteCommand, getCommand, regenCommandToken } from '../../domain/commands/manage-command.usecases';
import { updateCommand } from '../../domain/commands/update-command.usecase';
import { presentCommand } from './command-presenter';
import { commandInputFrom, parseGoBool } from './commands.schemas';
import { actorOf, idParam, queryValue, type HttpContext } from './http-context';

/** Custom slash commands CRUD (mattermost-wire-2.md §2). */
export function commandsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/commands', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 201, presentCommand(await createCommand(deps, actor, commandInputFrom(req.body))));
  });

  router.get('/api/v4/commands', async (req, res) => {
    const actor = actorOf(req);
    const listed = await listCommands(deps, actor, queryValue(req, 'team_id') ?? '', parseGoBool(queryValue(req, 'custom_only')));
    sendJson(res, 200, listed.map((l) => presentCommand(l.command, l.sanitised)));
  });

  router.get('/api/v4/teams/:team_id/commands/autocomplete', async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, (await listAutocompleteCommands(deps, actor, idParam(req, 'team_id'))).map((c) => presentCommand(c, true)));
  });

  router.get('/api/v4/commands/:command_id', async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentCommand(await getCommand(deps, actor, idParam(req, 'command_id'))));
  });

  router.put('/api/v4/commands/:command_id', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const commandId = idParam(req, 'command_id');
    sendJson(res, 200, presentCommand(await updateCommand(deps, actor, commandId, commandInputFrom(req.body))));
  });

  router.delete('/api/v4/commands/:command_id', async (req, res) => {
    const actor = actorOf(req);
    await deleteCommand(deps, actor, idParam(req, 'command_id'));
    sendStatusOk(res);
  });

  router.put('/api/v4/commands/:command_id/regen_token', async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, { token: await regenCommandToken(deps, actor, idParam(req, 'command_id')) });
  });

  return router;
}
