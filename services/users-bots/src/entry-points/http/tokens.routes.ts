import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { parsePaging, validate } from '@switchyard/validation';
import { createAccessToken } from '../../domain/tokens/create-access-token.usecase';
import { getAccessToken } from '../../domain/tokens/get-access-token.usecase';
import { listAllAccessTokens } from '../../domain/tokens/list-all-access-tokens.usecase';
import { listUserAccessTokens } from '../../domain/tokens/list-user-access-tokens.usecase';
import { revokeAccessToken } from '../../domain/tokens/revoke-access-token.usecase';
import { setAccessTokenActive } from '../../domain/tokens/set-access-token-active.usecase';
import { actorOf, idParam, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentToken } from './presenters';
import { createTokenBody, tokenIdBody } from './tokens.schemas';

/**
 * The body's `token_id`: missing, empty or not a string is 400 invalid_body_param; a string that is not a
 * valid id is looked up like any other and found nowhere (404 after the permission check), as the reference.
 */
function tokenIdFrom(body: unknown): string {
  return validate(tokenIdBody, body).token_id;
}

/** Personal access tokens and bot tokens (§5). Mounted before the `/users/:user_id` routes. */
export function tokensRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.post('/api/v4/users/:user_id/tokens', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const body = validate(createTokenBody, req.body);
    const created = await createAccessToken(deps, actor, userId, {
      description: body.description,
      ...(body.expires_at !== undefined ? { expiresAt: body.expires_at } : {}),
    });
    sendJson(res, 200, presentToken(created.token, created.secret));
  });

  router.get('/api/v4/users/:user_id/tokens', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const tokens = await listUserAccessTokens(deps, actor, userId, parsePaging(req.query as Record<string, unknown>));
    sendJson(res, 200, tokens.map((t) => presentToken(t)));
  });

  router.get('/api/v4/users/tokens', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const tokens = await listAllAccessTokens(deps, actor, parsePaging(req.query as Record<string, unknown>));
    sendJson(res, 200, tokens.map((t) => presentToken(t)));
  });

  router.get('/api/v4/users/tokens/:token_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const token = await getAccessToken(deps, actor, idParam(req, 'token_id'));
    sendJson(res, 200, presentToken(token));
  });

  router.post('/api/v4/users/tokens/revoke', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    await revokeAccessToken(deps, actor, tokenIdFrom(req.body));
    sendStatusOk(res);
  });

  router.post('/api/v4/users/tokens/disable', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    await setAccessTokenActive(deps, actor, tokenIdFrom(req.body), false);
    sendStatusOk(res);
  });

  router.post('/api/v4/users/tokens/enable', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    await setAccessTokenActive(deps, actor, tokenIdFrom(req.body), true);
    sendStatusOk(res);
  });

  return router;
}
