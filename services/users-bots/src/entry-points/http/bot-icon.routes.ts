import { Router } from 'express';
import { BOT_ICON_UPLOAD } from '@switchyard/contracts';
import { sendJson } from '@switchyard/http-kit';
import { deleteBotIcon } from '../../domain/pictures/delete-bot-icon.usecase';
import { getBotIcon } from '../../domain/pictures/get-bot-icon.usecase';
import { setBotIcon } from '../../domain/pictures/set-bot-icon.usecase';
import { Errors } from '../../domain/errors';
import { actorOf, idParam, requestDeps, type HttpContext } from './http-context';
import { pictureUpload, type UploadErrors } from './picture-upload';
import { sendPicture } from './picture-response';

const ICON_ERRORS: UploadErrors = { tooLarge: Errors.botIconTooLarge, parse: Errors.botIconParse, noFile: Errors.botIconNoFile };

/** Bot icons: `GET/POST/DELETE /bots/{bot_user_id}/icon` (SVG only, stored sanitised). */
export function botIconRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.get('/api/v4/bots/:bot_user_id/icon', async (req, res) => {
    const deps = requestDeps(ctx, res);
    sendPicture(req, res, await getBotIcon(deps, actorOf(req), idParam(req, 'bot_user_id')));
  });

  router.post('/api/v4/bots/:bot_user_id/icon', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const botId = idParam(req, 'bot_user_id');
    await setBotIcon(deps, actor, botId, pictureUpload(req, res, BOT_ICON_UPLOAD.limit, ICON_ERRORS));
    sendJson(res, 200, { status: 'OK' });
  });

  router.delete('/api/v4/bots/:bot_user_id/icon', async (req, res) => {
    const deps = requestDeps(ctx, res);
    await deleteBotIcon(deps, actorOf(req), idParam(req, 'bot_user_id'));
    sendJson(res, 200, { status: 'OK' });
  });

  return router;
}
