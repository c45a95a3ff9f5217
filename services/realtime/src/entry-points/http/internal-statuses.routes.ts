import { Router, type RequestHandler } from 'express';
import { RealtimeInternalPaths, Services } from '@switchyard/contracts';
import { sendJson, serviceOnly, type Keys } from '@switchyard/http-kit';
import { Joi, validate } from '@switchyard/validation';
import type { Statuses } from '../../domain/statuses/statuses';

/** The most ids one call asks about (posts asks for a channel's members, at most 1,000 for `@here`). */
const MAX_IDS = 1_000;
const onlineBody = Joi.object({ ids: Joi.array().items(Joi.string().max(64)).max(MAX_IDS).required() }).required();

/**
 * Internal API of realtime (never routed by the gateway): which users are online, for posts' `@here`
 * (the reference mentions the channel members whose status is exactly `online`). A service credential of
 * posts is required; anything else under /internal is refused.
 */
export function internalStatusesRoutes(statuses: Statuses, secret: Keys, withBody: readonly RequestHandler[]): Router {
  const router = Router();
  router.use('/internal', serviceOnly(secret, [Services.posts]));
  router.post(RealtimeInternalPaths.onlineUsers, ...withBody, async (req, res) => {
    const { ids } = validate(onlineBody, req.body) as { ids: string[] };
    sendJson(res, 200, { online: [...(await statuses.onlineAmong([...new Set(ids)]))] });
  });
  return router;
}
