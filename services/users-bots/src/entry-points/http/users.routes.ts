import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { parsePaging, validate } from '@switchyard/validation';
import { isAdmin } from '../../domain/authorization';
import { createUser } from '../../domain/users/create-user.usecase';
import { getUser } from '../../domain/users/get-user.usecase';
import { getUserByUsername } from '../../domain/users/get-user-by-username.usecase';
import { getUsersByIds } from '../../domain/users/get-users-by-ids.usecase';
import { getUsersByUsernames } from '../../domain/users/get-users-by-usernames.usecase';
import { listUsers } from '../../domain/users/list-users.usecase';
import { actorOf, optionalActorOf, queryBool, queryValue, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentUser, presentUsers } from './presenters';
import { createUserBody, idListBody, usernameListBody } from './users.schemas';

const USERNAME_PARAM = /^[A-Za-z0-9_\-.]+$/;

function teamIdQuery(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[a-z0-9]{26}$/.test(value)) throw commonErrors.invalidUrlParam(name);
  return value;
}

/** Sign-up and reading users. */
export function usersRoutes(ctx: HttpContext): Router {
  const config = () => ctx.deps.liveConfig.current();
  const router = Router();

  router.post('/api/v4/users', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = optionalActorOf(req);
    const body = validate(createUserBody, req.body);
    const user = await createUser(deps, actor, {
      username: body.username,
      email: body.email,
      password: body.password,
      nickname: body.nickname,
      firstName: body.first_name,
      lastName: body.last_name,
      position: body.position,
      locale: body.locale,
      props: body.props,
      notifyProps: body.notify_props,
      timezone: body.timezone,
      authService: body.auth_service,
      authData: body.auth_data ?? undefined,
      emailVerified: body.email_verified,
    });
    sendJson(res, 201, presentUser({ user }, { self: true, admin: isAdmin(actor), config: config() }));
  });

  router.get('/api/v4/users', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const { page, perPage } = parsePaging(req.query as Record<string, unknown>);
    const roles = queryValue(req, 'roles');
    const views = await listUsers(deps, actor, {
      page,
      perPage,
      inTeam: teamIdQuery(queryValue(req, 'in_team'), 'in_team'),
      notInTeam: teamIdQuery(queryValue(req, 'not_in_team'), 'not_in_team'),
      withoutTeam: queryBool(req, 'without_team'),
      active: queryBool(req, 'active'),
      inactive: queryBool(req, 'inactive'),
      role: queryValue(req, 'role') || undefined,
      roles: roles ? roles.split(',').map((r) => r.trim()).filter((r) => r !== '') : undefined,
      sort: queryValue(req, 'sort'),
      ...unsupportedFilters(req.query as Record<string, unknown>),
    });
    sendJson(res, 200, presentUsers(views, actor.userId, isAdmin(actor), config()));
  });

  router.post('/api/v4/users/ids', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const ids = validate(idListBody, req.body, { onError: () => commonErrors.invalidBodyParam('user_ids') });
    const sinceRaw = queryValue(req, 'since');
    const since = sinceRaw !== undefined && /^\d+$/.test(sinceRaw) ? Number(sinceRaw) : undefined;
    const views = await getUsersByIds(deps, actor, ids, since);
    sendJson(res, 200, presentUsers(views, actor.userId, isAdmin(actor), config()));
  });

  router.post('/api/v4/users/usernames', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const usernames = validate(usernameListBody, req.body, { onError: () => commonErrors.invalidBodyParam('usernames') });
    const views = await getUsersByUsernames(deps, actor, usernames);
    sendJson(res, 200, presentUsers(views, actor.userId, isAdmin(actor), config()));
  });

  router.get('/api/v4/users/username/:username', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const username = req.params.username;
    if (typeof username !== 'string' || !USERNAME_PARAM.test(username)) throw commonErrors.invalidUrlParam('username');
    const view = await getUserByUsername(deps, actor, username);
    sendJson(res, 200, presentUser(view, { self: view.user.id === actor.userId, admin: isAdmin(actor), config: config() }));
  });

  router.get('/api/v4/users/:user_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const view = await getUser(deps, actor, userIdParam(req));
    sendJson(res, 200, presentUser(view, { self: view.user.id === actor.userId, admin: isAdmin(actor), config: config() }));
  });

  return router;
}

/** Channel filters belong to the posts service; refusing them beats silently ignoring them. */
function unsupportedFilters(query: Record<string, unknown>): Record<string, never> {
  for (const name of ['in_channel', 'not_in_channel', 'in_group', 'team_roles', 'channel_roles']) {
    if (query[name] !== undefined && query[name] !== '') throw commonErrors.invalidUrlParam(name);
  }
  return {};
}
