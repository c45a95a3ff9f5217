import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { integrationSigningKey } from '../../domain/signing/integration-signers';
import { actorOf, type HttpContext } from './http-context';

/**
 * `GET /api/v4/system/integration_signing_key` → `{"algorithm", "public_keys"}`: how action callbacks,
 * dialog submissions and slash commands are signed (README "Ed25519 signatures"). Any signed-in user or
 * bot: a public key is no secret, and integrations need it to verify.
 */
export function signingKeyRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.get('/api/v4/system/integration_signing_key', (req, res) => {
    actorOf(req);
    sendJson(res, 200, integrationSigningKey(ctx.deps.liveConfig.current()));
  });
  return router;
}
