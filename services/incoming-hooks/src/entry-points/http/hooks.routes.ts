import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { parsePaging, validate } from '@switchyard/validation';
import { Errors } from '../../domain/errors';
import { createHook } from '../../domain/hooks/create-hook.usecase';
import { deleteHook } from '../../domain/hooks/delete-hook.usecase';
import { getHook } from '../../domain/hooks/get-hook.usecase';
import { listHooks } from '../../domain/hooks/list-hooks.usecase';
import { updateHook } from '../../domain/hooks/update-hook.usecase';
import { hookBody, type HookBody } from './hooks.schemas';
import { actorOf, idParam, queryBool, queryValue, type HttpContext } from './http-context';
import { hookInputFrom, presentHook } from './presenters';

function bodyOf(body: unknown): HookBody {
  return validate<HookBody>(hookBody, body, { onError: (_key, detail) => Errors.invalidBodyParam('incoming_webhook', detail) });
}

/** `/api/v4/hooks/incoming*` (mattermost-wire.md §9). */
export function hooksRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/hooks/incoming', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const hook = await createHook(deps, actor, hookInputFrom(bodyOf(req.body)));
    sendJson(res, 201, presentHook(hook));
  });

  router.get('/api/v4/hooks/incoming', async (req, res) => {
    const actor = actorOf(req);
    const { page, perPage } = parsePaging(req.query as Record<string, unknown>);
    const teamId = queryValue(req, 'team_id');
    const includeTotalCount = queryBool(req, 'include_total_count');
    const result = await listHooks(deps, actor, { ...(teamId ? { teamId } : {}), page, perPage, includeTotalCount });
    const hooks = result.hooks.map(presentHook);
    sendJson(res, 200, includeTotalCount ? { incoming_webhooks: hooks, total_count: result.total ?? 0 } : hooks);
  });

  router.get('/api/v4/hooks/incoming/:hook_id', async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentHook(await getHook(deps, actor, idParam(req, 'hook_id'))));
  });

  router.put('/api/v4/hooks/incoming/:hook_id', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const hookId = idParam(req, 'hook_id');
    const hook = await updateHook(deps, actor, hookId, hookInputFrom(bodyOf(req.body)));
    ctx.onHookChanged(hookId);
    // The reference answers 201 here (its OpenAPI text says 200).
    sendJson(res, 201, presentHook(hook));
  });

  router.delete('/api/v4/hooks/incoming/:hook_id', async (req, res) => {
    const actor = actorOf(req);
    const hookId = idParam(req, 'hook_id');
    await deleteHook(deps, actor, hookId);
    ctx.onHookChanged(hookId);
    sendStatusOk(res);
  });

  return router;
}
