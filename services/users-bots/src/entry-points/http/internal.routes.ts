import { Router } from 'express';
import { InternalPaths, Services, type InternalBot, type UserUpdatedCopies } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { sendJson, serviceOnly } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { resolveToken } from '../../domain/auth/resolve-token.usecase';
import { getInternalTeam } from '../../domain/teams/get-internal-team.usecase';
import { getTeamMember } from '../../domain/teams/get-team-member.usecase';
import { teamMembersAmong } from '../../domain/teams/team-members-among.usecase';
import { getUserView } from '../../domain/users/get-user-view.usecase';
import { lookupUsers } from '../../domain/users/lookup-users.usecase';
import { mentionSettings } from '../../domain/users/mention-settings.usecase';
import { crtPreferences } from '../../domain/preferences/preferences.usecase';
import { Errors } from '../../domain/errors';
import { idParam, requestDeps, type HttpContext } from './http-context';
import { presentInternalTeam, presentInternalUser, presentTeamMember, presentUser } from './presenters';
import { byIdBody, byIdsBody, byUsernamesBody, resolveBody, teamMembersAmongBody } from './internal.schemas';

/**
 * Internal API (never routed by the gateway). Each route names the services that may call it; they prove
 * it with a service credential (http-kit serviceOnly). A user identity, however valid, is refused (401),
 * and so is every request to /internal without a credential, even to a path no route serves.
 */
export function internalRoutes(ctx: HttpContext): Router {
  const router = Router();
  const { gateway, posts, incomingHooks, outgoingDispatch, realtime } = Services;
  const only = (...callers: string[]) => serviceOnly(ctx.internalSecret, callers);
  router.use('/internal', only(gateway, posts, incomingHooks, outgoingDispatch, realtime));

  router.post(InternalPaths.resolveToken, only(gateway, realtime), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { token } = validate(resolveBody, req.body);
    sendJson(res, 200, await resolveToken(deps, token));
  });

  router.get(InternalPaths.config, only(gateway, posts, incomingHooks, outgoingDispatch, realtime), (_req, res) => {
    sendJson(res, 200, ctx.deps.liveConfig.current());
  });

  router.post(InternalPaths.crtPreferences, only(posts), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { ids } = validate(byIdsBody, req.body);
    sendJson(res, 200, { values: Object.fromEntries(await crtPreferences(deps, ids)) });
  });

  router.post(InternalPaths.mentionSettings, only(posts), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { ids } = validate(byIdsBody, req.body);
    sendJson(res, 200, { settings: await mentionSettings(deps, ids) });
  });

  router.post(InternalPaths.usersByIds, only(posts, incomingHooks, outgoingDispatch, realtime), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { ids } = validate(byIdsBody, req.body);
    sendJson(res, 200, (await lookupUsers(deps, { ids })).map(presentInternalUser));
  });

  router.post(InternalPaths.userUpdatedCopies, only(realtime), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { id } = validate(byIdBody, req.body);
    const view = await getUserView(deps, id);
    const config = deps.liveConfig.current();
    const copies: UserUpdatedCopies = {
      admin: presentUser(view, { self: false, admin: true, config }),
      sanitized: presentUser(view, { self: false, admin: false, config }),
      self: presentUser(view, { self: true, admin: false, config }),
    };
    sendJson(res, 200, copies);
  });

  router.post(InternalPaths.usersByUsernames, only(posts, incomingHooks, outgoingDispatch), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const { usernames } = validate(byUsernamesBody, req.body);
    sendJson(res, 200, (await lookupUsers(deps, { usernames })).map(presentInternalUser));
  });

  router.get('/internal/v1/bots/:bot_id', only(outgoingDispatch), async (req, res) => {
    const deps = requestDeps(ctx, res);
    const bot = await deps.bots.findById(idParam(req, 'bot_id'));
    if (!bot) throw Errors.botNotFound();
    const view: InternalBot = { user_id: bot.id, owner_id: bot.ownerId, delete_at: bot.deleteAt };
    sendJson(res, 200, view);
  });

  router.get(`${InternalPaths.teamMember}/:team_id/members/:user_id`, only(posts, incomingHooks, outgoingDispatch, realtime), async (req, res) => {
    const deps = requestDeps(ctx, res);
    const member = await getTeamMember(deps, idParam(req, 'team_id'), idParam(req, 'user_id'));
    sendJson(res, 200, presentTeamMember(member));
  });

  router.post(InternalPaths.teamMembersAmong, only(posts), ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const body = validate(teamMembersAmongBody, req.body) as { team_id?: string; user_ids: string[] };
    sendJson(res, 200, await teamMembersAmong(deps, body.user_ids, body.team_id));
  });

  router.get(`${InternalPaths.teamMember}/name/:team_name`, only(posts), async (req, res) => {
    const deps = requestDeps(ctx, res);
    const name = req.params.team_name;
    if (typeof name !== 'string' || !TEAM_NAME_PARAM.test(name)) throw commonErrors.invalidUrlParam('team_name');
    sendJson(res, 200, presentInternalTeam(await getInternalTeam(deps, { name })));
  });

  router.get(`${InternalPaths.teamMember}/:team_id`, only(posts, outgoingDispatch), async (req, res) => {
    const deps = requestDeps(ctx, res);
    sendJson(res, 200, presentInternalTeam(await getInternalTeam(deps, { id: idParam(req, 'team_id') })));
  });

  return router;
}

const TEAM_NAME_PARAM = /^[A-Za-z0-9_-]{1,64}$/;
