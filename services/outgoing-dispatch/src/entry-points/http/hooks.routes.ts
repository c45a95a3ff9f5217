import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { parsePaging } from '@switchyard/validation';
import { createHook } from '../../domain/hooks/create-hook.usecase';
import { deleteHook } from '../../domain/hooks/delete-hook.usecase';
import { enableHook } from '../../domain/hooks/enable-hook.usecase';
import { getHook } from '../../domain/hooks/get-hook.usecase';
import { listHooks } from '../../domain/hooks/list-hooks.usecase';
import { regenSigningSecret, regenToken } from '../../domain/hooks/regen-token.usecase';
import { updateHook } from '../../domain/hooks/update-hook.usecase';
import { listDeliveries } from '../../domain/delivery/list-deliveries.usecase';
import { redeliver, redeliverFailed } from '../../domain/delivery/redeliver.usecase';
import { commonErrors } from '@switchyard/errors';
import { hookInputFrom } from './hooks.schemas';
import { actorOf, idParam, queryValue, type HttpContext } from './http-context';
import { presentDelivery, presentHook } from './presenters';

const BASE = '/api/v4/hooks/outgoing';

/** Outgoing webhooks CRUD (§10) and the delivery log (README extensions). */
export function hooksRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post(BASE, ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 201, presentHook(await createHook(deps, actor, hookInputFrom(req.body))));
  });

  router.get(BASE, async (req, res) => {
    const actor = actorOf(req);
    const paging = parsePaging(req.query as Record<string, unknown>);
    const channelId = queryValue(req, 'channel_id');
    const teamId = queryValue(req, 'team_id');
    const hooks = await listHooks(deps, actor, { ...paging, ...(channelId ? { channelId } : {}), ...(teamId ? { teamId } : {}) });
    sendJson(res, 200, hooks.map(presentHook));
  });

  router.get(`${BASE}/:hook_id`, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentHook(await getHook(deps, actor, idParam(req, 'hook_id'))));
  });

  router.put(`${BASE}/:hook_id`, ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const hookId = idParam(req, 'hook_id');
    sendJson(res, 200, presentHook(await updateHook(deps, actor, hookId, hookInputFrom(req.body))));
  });

  router.delete(`${BASE}/:hook_id`, async (req, res) => {
    const actor = actorOf(req);
    await deleteHook(deps, actor, idParam(req, 'hook_id'));
    sendStatusOk(res);
  });

  router.post(`${BASE}/:hook_id/regen_token`, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentHook(await regenToken(deps, actor, idParam(req, 'hook_id'))));
  });

  router.post(`${BASE}/:hook_id/regen_signing_secret`, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentHook(await regenSigningSecret(deps, actor, idParam(req, 'hook_id'))));
  });

  router.post(`${BASE}/:hook_id/enable`, async (req, res) => {
    const actor = actorOf(req);
    sendJson(res, 200, presentHook(await enableHook(deps, actor, idParam(req, 'hook_id'))));
  });

  router.get(`${BASE}/:hook_id/deliveries`, async (req, res) => {
    const actor = actorOf(req);
    const paging = parsePaging(req.query as Record<string, unknown>);
    sendJson(res, 200, (await listDeliveries(deps, actor, idParam(req, 'hook_id'), paging)).map(presentDelivery));
  });

  router.post(`${BASE}/:hook_id/deliveries/redeliver_failed`, async (req, res) => {
    const actor = actorOf(req);
    const sinceRaw = queryValue(req, 'since') ?? '0';
    if (!/^\d{1,15}$/.test(sinceRaw)) throw commonErrors.invalidUrlParam('since');
    const requeued = await redeliverFailed(deps, actor, idParam(req, 'hook_id'), Number(sinceRaw));
    sendJson(res, 200, requeued.map(presentDelivery));
  });

  router.post(`${BASE}/:hook_id/deliveries/:delivery_id/redeliver`, async (req, res) => {
    const actor = actorOf(req);
    const delivery = await redeliver(deps, actor, idParam(req, 'hook_id'), idParam(req, 'delivery_id'));
    sendJson(res, 200, presentDelivery(delivery));
  });

  return router;
}
