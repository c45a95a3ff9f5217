import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { sanitizeConfig, type SystemConfig } from '@switchyard/system-config';
import { validate } from '@switchyard/validation';
import { inEffect } from '../../domain/config/file-overrides';
import { getConfig } from '../../domain/config/get-config.usecase';
import { patchConfig } from '../../domain/config/patch-config.usecase';
import { updateConfig } from '../../domain/config/update-config.usecase';
import { configBody } from './config.schemas';
import { actorOf, requestDeps, type HttpContext } from './http-context';

const NO_CACHE = 'no-cache, no-store, must-revalidate';

/** The system config (§11): secrets masked in every answer. */
export function configRoutes(ctx: HttpContext): Router {
  const router = Router();

  // Every answer is the config in effect: the document with the FileSettings posts' environment fixes.
  const shown = async (config: Readonly<SystemConfig>): Promise<SystemConfig> => sanitizeConfig(inEffect(config, (await ctx.deps.fileSettingsOverrides?.current()) ?? {}));

  router.get('/api/v4/config', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const config = getConfig(deps, actorOf(req));
    res.setHeader('Cache-Control', NO_CACHE);
    sendJson(res, 200, await shown(config));
  });

  router.put('/api/v4/config', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const body = validate(configBody, req.body) as Record<string, unknown>;
    const saved = await updateConfig(deps, actor, body);
    res.setHeader('Cache-Control', NO_CACHE);
    sendJson(res, 200, await shown(saved));
  });

  router.put('/api/v4/config/patch', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const body = validate(configBody, req.body) as Record<string, unknown>;
    const saved = await patchConfig(deps, actor, body);
    res.setHeader('Cache-Control', NO_CACHE);
    sendJson(res, 200, await shown(saved));
  });

  return router;
}
