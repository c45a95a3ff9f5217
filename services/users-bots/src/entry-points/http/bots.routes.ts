import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { parsePaging, validate } from '@switchyard/validation';
import { assignBot } from '../../domain/bots/assign-bot.usecase';
import { convertBotToUser } from '../../domain/bots/convert-bot-to-user.usecase';
import { createBot, type BotPatchInput } from '../../domain/bots/create-bot.usecase';
import { getBot } from '../../domain/bots/get-bot.usecase';
import { listBots } from '../../domain/bots/list-bots.usecase';
import { patchBot } from '../../domain/bots/patch-bot.usecase';
import { setBotActive } from '../../domain/bots/set-bot-active.usecase';
import { isAdmin } from '../../domain/authorization';
import { botPatchBody, convertBotToUserBody } from './bots.schemas';
import { actorOf, idParam, queryBool, requestDeps, type HttpContext } from './http-context';
import { presentBot, presentUser } from './presenters';

function botPatchFrom(body: unknown): BotPatchInput {
  const patch = validate(botPatchBody, body);
  return {
    ...(patch.username !== undefined ? { username: patch.username } : {}),
    ...(patch.display_name !== undefined ? { displayName: patch.display_name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
  };
}

/** Bot accounts (§4). */
export function botsRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.post('/api/v4/bots', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const patch = botPatchFrom(req.body);
    sendJson(res, 201, presentBot(await createBot(deps, actor, patch)));
  });

  router.get('/api/v4/bots', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const { page, perPage } = parsePaging(req.query as Record<string, unknown>);
    const bots = await listBots(deps, actor, {
      page,
      perPage,
      includeDeleted: queryBool(req, 'include_deleted'),
      onlyOrphaned: queryBool(req, 'only_orphaned'),
    });
    sendJson(res, 200, bots.map(presentBot));
  });

  router.get('/api/v4/bots/:bot_user_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const bot = await getBot(deps, actor, idParam(req, 'bot_user_id'), queryBool(req, 'include_deleted'));
    sendJson(res, 200, presentBot(bot));
  });

  router.put('/api/v4/bots/:bot_user_id', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const botId = idParam(req, 'bot_user_id');
    sendJson(res, 200, presentBot(await patchBot(deps, actor, botId, botPatchFrom(req.body))));
  });

  router.post('/api/v4/bots/:bot_user_id/disable', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    sendJson(res, 200, presentBot(await setBotActive(deps, actor, idParam(req, 'bot_user_id'), false)));
  });

  router.post('/api/v4/bots/:bot_user_id/enable', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    sendJson(res, 200, presentBot(await setBotActive(deps, actor, idParam(req, 'bot_user_id'), true)));
  });

  router.post('/api/v4/bots/:bot_user_id/assign/:user_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const botId = idParam(req, 'bot_user_id');
    sendJson(res, 200, presentBot(await assignBot(deps, actor, botId, idParam(req, 'user_id'))));
  });

  router.post('/api/v4/bots/:bot_user_id/convert_to_user', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const botId = idParam(req, 'bot_user_id');
    const body = validate(convertBotToUserBody, req.body);
    const view = await convertBotToUser(deps, actor, botId, {
      password: body.password,
      username: body.username,
      email: body.email,
      nickname: body.nickname,
      firstName: body.first_name,
      lastName: body.last_name,
      position: body.position,
      setSystemAdmin: queryBool(req, 'set_system_admin'),
    });
    sendJson(res, 200, presentUser(view, { self: view.user.id === actor.userId, admin: isAdmin(actor), config: deps.liveConfig.current() }));
  });

  return router;
}
