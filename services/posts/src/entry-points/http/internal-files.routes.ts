import { Router } from 'express';
import { PostsInternalPaths, Services, type InternalFileOwner } from '@switchyard/contracts';
import { sendJson, serviceOnly } from '@switchyard/http-kit';
import { Joi, validate } from '@switchyard/validation';
import type { HttpContext } from './http-context';

/** At most this many ids per call (a dialog sends ten files and a bounded number of id-shaped values). */
const MAX_IDS = 100;

const fileOwnersBody = Joi.object({ file_ids: Joi.array().items(Joi.string().max(64)).max(MAX_IDS).required() });

/**
 * posts' internal file lookups (never routed by the gateway): who uploaded each file, for the dialog
 * submissions of outgoing-dispatch (11.10 `file_ids`: only the user's own files may be sent on).
 */
export function internalFilesRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  router.post(PostsInternalPaths.fileOwners, serviceOnly(ctx.internalSecret, [Services.outgoingDispatch]), ...ctx.withBody, async (req, res) => {
    const { file_ids: ids } = validate(fileOwnersBody, req.body) as { file_ids: string[] };
    const infos = await Promise.all([...new Set(ids)].map((id) => deps.files.findById(id)));
    const files: InternalFileOwner[] = infos.filter((f) => f !== undefined).map((f) => ({ id: f.id, user_id: f.user_id, delete_at: f.delete_at }));
    sendJson(res, 200, { files });
  });
  return router;
}
