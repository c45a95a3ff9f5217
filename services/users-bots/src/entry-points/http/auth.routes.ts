import { Router, type Request, type Response } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import { validate } from '@switchyard/validation';
import { listSessions } from '../../domain/auth/list-sessions.usecase';
import { login } from '../../domain/auth/login.usecase';
import { logout } from '../../domain/auth/logout.usecase';
import { revokeSession } from '../../domain/auth/revoke-session.usecase';
import { viewOf } from '../../domain/views';
import { loginBody, loginFields } from './auth.schemas';
import { actorOf, optionalActorOf, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentSession, presentUser } from './presenters';
import { revokeSessionBody } from './users.schemas';

export const AUTH_COOKIE = 'MMAUTHTOKEN';
export const USER_COOKIE = 'MMUSERID';
export const CSRF_COOKIE = 'MMCSRF';

function isSecure(req: Request, siteUrl: string): boolean {
  return siteUrl.startsWith('https://') || req.headers['x-forwarded-proto'] === 'https';
}

function clearCookies(res: Response): void {
  for (const name of [AUTH_COOKIE, USER_COOKIE, CSRF_COOKIE]) res.cookie(name, '', { path: '/', maxAge: 0, httpOnly: name === AUTH_COOKIE });
}

/** Login, logout and sessions. */
export function authRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.post('/api/v4/users/login', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const body = validate(loginBody, loginFields(req.body));
    const result = await login(deps, {
      password: body.password,
      ...(body.id ? { id: body.id } : {}),
      ...(body.login_id !== undefined ? { loginId: body.login_id } : {}),
      deviceId: body.device_id ?? body.deviceId ?? '',
    });
    const config = deps.liveConfig.current();
    res.setHeader('Token', result.token);
    if (req.headers['x-requested-with'] === 'XMLHttpRequest') {
      const common = { path: '/', maxAge: config.ServiceSettings.SessionLengthWebInHours * 3_600_000, secure: isSecure(req, config.ServiceSettings.SiteURL), sameSite: 'lax' as const };
      res.cookie(AUTH_COOKIE, result.token, { ...common, httpOnly: true });
      res.cookie(USER_COOKIE, result.user.id, common);
      res.cookie(CSRF_COOKIE, result.session.csrfToken, common);
    }
    const view = await viewOf(deps, result.user);
    sendJson(res, 200, presentUser(view, { self: true, admin: false, config }));
  });

  router.post('/api/v4/users/logout', async (req, res) => {
    const deps = requestDeps(ctx, res);
    await logout(deps, optionalActorOf(req));
    clearCookies(res);
    sendStatusOk(res);
  });

  router.get('/api/v4/users/:user_id/sessions', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const sessions = await listSessions(deps, actor, userId);
    const user = await deps.users.findById(userId);
    sendJson(res, 200, sessions.map((s) => presentSession(s, user?.roles ?? '')));
  });

  router.post('/api/v4/users/:user_id/sessions/revoke', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const body = validate(revokeSessionBody, req.body);
    if (!isValidId(body.session_id)) throw commonErrors.invalidBodyParam('session_id');
    await revokeSession(deps, actor, userId, body.session_id);
    sendStatusOk(res);
  });

  return router;
}
