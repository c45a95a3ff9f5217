import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import { parsePaging, validate } from '@switchyard/validation';
import { Permissions } from '@switchyard/permissions';
import { requireOnTeam } from '../../domain/authorization';
import { addTeamMember } from '../../domain/teams/add-team-member.usecase';
import { getTeamMember } from '../../domain/teams/get-team-member.usecase';
import { createTeam } from '../../domain/teams/create-team.usecase';
import { getTeam } from '../../domain/teams/get-team.usecase';
import { getTeamByName } from '../../domain/teams/get-team-by-name.usecase';
import { listTeamMembers } from '../../domain/teams/list-team-members.usecase';
import { listUserTeamMembers } from '../../domain/teams/list-user-team-members.usecase';
import { listUserTeams } from '../../domain/teams/list-user-teams.usecase';
import { actorOf, idParam, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentTeam, presentTeamMember } from './presenters';
import { addTeamMemberBody, createTeamBody } from './teams.schemas';

const TEAM_NAME_PARAM = /^[A-Za-z0-9_-]+$/;

/** Teams and team members (§6). Channels belong to the posts service. */
export function teamsRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.post('/api/v4/teams', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const body = validate(createTeamBody, req.body);
    const team = await createTeam(deps, actor, {
      name: body.name,
      displayName: body.display_name,
      type: body.type,
      description: body.description,
      email: body.email,
      companyName: body.company_name,
      allowedDomains: body.allowed_domains,
      allowOpenInvite: body.allow_open_invite,
    });
    sendJson(res, 201, presentTeam(team));
  });

  router.get('/api/v4/teams/name/:team_name', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const name = req.params.team_name;
    if (typeof name !== 'string' || !TEAM_NAME_PARAM.test(name)) throw commonErrors.invalidUrlParam('team_name');
    sendJson(res, 200, presentTeam(await getTeamByName(deps, actor, name)));
  });

  router.get('/api/v4/teams/:team_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    sendJson(res, 200, presentTeam(await getTeam(deps, actor, idParam(req, 'team_id'))));
  });

  router.post('/api/v4/teams/:team_id/members', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const teamId = idParam(req, 'team_id');
    const body = validate(addTeamMemberBody, req.body);
    if (body.team_id !== undefined && body.team_id !== teamId) throw commonErrors.invalidBodyParam('team_id');
    if (!isValidId(body.user_id)) throw commonErrors.invalidBodyParam('user_id');
    sendJson(res, 201, presentTeamMember(await addTeamMember(deps, actor, teamId, body.user_id)));
  });

  router.get('/api/v4/teams/:team_id/members', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const teamId = idParam(req, 'team_id');
    const members = await listTeamMembers(deps, actor, teamId, parsePaging(req.query as Record<string, unknown>));
    sendJson(res, 200, members.map(presentTeamMember));
  });

  router.get('/api/v4/teams/:team_id/members/:user_id', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const teamId = idParam(req, 'team_id');
    const userId = userIdParam(req);
    await requireOnTeam(deps, actor, teamId, Permissions.viewTeam);
    sendJson(res, 200, presentTeamMember(await getTeamMember(deps, teamId, userId)));
  });

  router.get('/api/v4/users/:user_id/teams', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const teams = await listUserTeams(deps, actor, userIdParam(req));
    sendJson(res, 200, teams.map(presentTeam));
  });

  router.get('/api/v4/users/:user_id/teams/members', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const members = await listUserTeamMembers(deps, actor, userIdParam(req));
    sendJson(res, 200, members.map(presentTeamMember));
  });

  return router;
}
