import { Router, type Request } from 'express';
import { commonErrors, notFound, notImplemented } from '@switchyard/errors';
import { requireIdentity, sendJson } from '@switchyard/http-kit';
import { requireIdParam } from '@switchyard/validation';
import type { HttpContext } from './http-context';
import { paging, queryValue } from './http-context';

const EMOJI_NAME = /^[a-zA-Z0-9\-+_]{1,64}$/;

/**
 * Custom emoji (mattermost-wire-3.md §3.9). Switchyard stores no custom emoji (clients carry the system
 * ones), so the list is empty and single lookups are 404; with EnableCustomEmoji off every route answers
 * the reference's 501, and creation answers 501 as a server without emoji storage does.
 */
export function emojiRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  const requireEnabled = (req: Request): void => {
    requireIdentity(req);
    if (!deps.liveConfig.current().ServiceSettings.EnableCustomEmoji) throw notImplemented('api.emoji.disabled.app_error', 'Custom emoji have been disabled by the system admin.');
  };

  router.get('/api/v4/emoji', (req, res) => {
    requireEnabled(req);
    paging(req);
    const sort = queryValue(req, 'sort') ?? '';
    if (sort !== '' && sort !== 'name') throw commonErrors.invalidUrlParam('sort');
    sendJson(res, 200, []);
  });

  router.post('/api/v4/emoji', (req) => {
    requireEnabled(req);
    throw notImplemented('api.emoji.storage.app_error', 'File storage not configured properly. Please configure for either S3 or local server file storage.');
  });

  router.get('/api/v4/emoji/name/:emoji_name', (req) => {
    requireEnabled(req);
    if (!EMOJI_NAME.test(req.params.emoji_name ?? '')) throw commonErrors.invalidUrlParam('emoji_name');
    throw notFound('app.emoji.get_by_name.no_result', 'Unable to find the emoji.');
  });

  router.get('/api/v4/emoji/:emoji_id', (req) => {
    requireEnabled(req);
    requireIdParam(req.params.emoji_id, 'emoji_id');
    throw notFound('app.emoji.get.no_result', 'Unable to find the emoji.');
  });

  return router;
}
