import { Router } from 'express';
import { INTEGRATION_BOTS, InternalPaths, Services, type IntegrationSender } from '@switchyard/contracts';
import { sendJson, serviceOnly } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import { Joi, validate } from '@switchyard/validation';
import { collisionMessage, ensureIntegrationBot } from '../../domain/bots/ensure-integration-bot.usecase';
import { requestDeps, type HttpContext } from './http-context';

const body = Joi.object({ username: Joi.string().valid(...Object.keys(INTEGRATION_BOTS)).required() }).required();

/** `POST /internal/v1/bots/integration` (incoming-hooks only): who a built-in integration posts as. */
export function integrationBotRoutes(ctx: HttpContext, logger: Logger): Router {
  const router = Router();
  router.post(InternalPaths.integrationBot, serviceOnly(ctx.internalSecret, [Services.incomingHooks]), ...ctx.withBody, async (req, res) => {
    const { username } = validate<{ username: string }>(body, req.body);
    const sender = await ensureIntegrationBot(requestDeps(ctx, res), username);
    if (sender.kind === 'user') logger.error(collisionMessage(sender.username, INTEGRATION_BOTS[username] ?? username), { request_id: req.requestId, username, user_id: sender.userId });
    const answer: IntegrationSender = { user_id: sender.userId, is_bot: sender.kind === 'bot' };
    sendJson(res, 200, answer);
  });
  return router;
}
