import { Router, type Request } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { Joi, parseJsonBody, validate } from '@switchyard/validation';
import { requireSelfOrEditOthers } from '../../domain/authorization';
import type { Preference } from '../../domain/preferences/preference';
import { deletePreferences, getPreference, listCategory, listPreferences, updatePreferences } from '../../domain/preferences/preferences.usecase';
import { actorOf, requestDeps, userIdParam, type HttpContext } from './http-context';

/** Route parameters as the reference's router takes them (`[A-Za-z0-9_]+`); anything else matches no route (404). */
const SEGMENT = /^[A-Za-z0-9_]+$/;
/** The most preferences one request writes (bounded work). */
const MAX_PREFERENCES = 1_000;

const field = Joi.string().allow('').max(100_000);
/** `model.Preferences` as Go decodes it: an array of objects whose known fields are strings (`null` is an empty list). */
const preferencesBody = Joi.array()
  .items(Joi.object({ user_id: field, category: field, name: field, value: field }).unknown(true).required())
  .max(MAX_PREFERENCES)
  .allow(null);

function preferencesOf(req: Request): Preference[] {
  let raw: unknown;
  try {
    raw = req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
  } catch {
    throw commonErrors.invalidBodyParam('preferences');
  }
  if (raw === undefined) throw commonErrors.invalidBodyParam('preferences');
  const list = validate(preferencesBody, raw, { onError: (_key, detail) => commonErrors.invalidBodyParam('preferences', detail) }) as Partial<Preference>[] | null;
  return (list ?? []).map((p) => ({ user_id: p.user_id ?? '', category: p.category ?? '', name: p.name ?? '', value: p.value ?? '' }));
}

const segment = (req: Request, name: string): string => {
  const raw: unknown = req.params[name];
  const value = typeof raw === 'string' ? raw : '';
  if (!SEGMENT.test(value)) throw commonErrors.routeNotFound(req.originalUrl);
  return value;
};

/** `/users/{user_id}/preferences` (the reference's api4/preference.go): list, by category, one, save, delete. */
export function preferencesRoutes(ctx: HttpContext): Router {
  const router = Router();
  const [readBody] = ctx.withBody;

  router.get('/api/v4/users/:user_id/preferences', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const userId = userIdParam(req);
    sendJson(res, 200, await listPreferences(deps, actorOf(req), userId));
  });

  router.get('/api/v4/users/:user_id/preferences/:category', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const userId = userIdParam(req);
    sendJson(res, 200, await listCategory(deps, actorOf(req), userId, segment(req, 'category')));
  });

  router.get('/api/v4/users/:user_id/preferences/:category/name/:preference_name', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const userId = userIdParam(req);
    sendJson(res, 200, await getPreference(deps, actorOf(req), userId, segment(req, 'category'), segment(req, 'preference_name')));
  });

  if (readBody) {
    router.put('/api/v4/users/:user_id/preferences', readBody, async (req, res) => {
      const deps = requestDeps(ctx, res);
      const userId = userIdParam(req);
      const actor = actorOf(req);
      requireSelfOrEditOthers(actor, userId);
      await updatePreferences(deps, actor, userId, preferencesOf(req));
      sendStatusOk(res);
    });

    router.post('/api/v4/users/:user_id/preferences/delete', readBody, async (req, res) => {
      const deps = requestDeps(ctx, res);
      const userId = userIdParam(req);
      const actor = actorOf(req);
      requireSelfOrEditOthers(actor, userId);
      await deletePreferences(deps, actor, userId, preferencesOf(req));
      sendStatusOk(res);
    });
  }

  return router;
}
