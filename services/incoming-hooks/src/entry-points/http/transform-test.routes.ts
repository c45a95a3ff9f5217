import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { Joi, validate } from '@switchyard/validation';
import { Errors } from '../../domain/errors';
import { testTransform, type TransformTest } from '../../domain/transform/test-transform.usecase';
import { actorOf, idParam, type HttpContext } from './http-context';

/** `{"body": <any JSON>, "headers": {name: value}, "query"?: "a=b", "transform"?: {template} | {jsonata}}`. */
const sampleBody = Joi.object({
  body: Joi.any(),
  headers: Joi.object().pattern(Joi.string().max(256), Joi.string().allow('').max(8192)).max(100),
  query: Joi.string().allow('').max(8192),
  transform: Joi.object({ template: Joi.string().max(50), jsonata: Joi.string().allow('') }).xor('template', 'jsonata'),
}).required();

/** `POST /api/v4/hooks/incoming/{hook_id}/transform/test` (spec "Hook transform", dry run). */
export function transformTestRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.post('/api/v4/hooks/incoming/:hook_id/transform/test', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const hookId = idParam(req, 'hook_id');
    const raw = req.body as Record<string, unknown> | undefined;
    const sample = validate<Omit<TransformTest, 'body'>>(sampleBody, raw, { onError: (_key, detail) => Errors.invalidBodyParam('transform_test', detail) });
    // `body` is the sample as sent, nulls included (the validator's null-means-absent rule is for fields).
    const outcome = await testTransform(ctx.deps, actor, hookId, { ...sample, headers: sample.headers ?? {}, body: raw?.body ?? null });
    sendJson(res, 200, outcome.filtered ? { post: null, event: outcome.event, filtered: true } : { post: outcome.post, event: outcome.event, filtered: false });
  });
  return router;
}
