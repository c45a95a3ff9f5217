import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { goAtoi, validate } from '@switchyard/validation';
import { isAdmin } from '../../domain/authorization';
import { autocompleteUsers } from '../../domain/search/autocomplete-users.usecase';
import type { ChannelMemberIds } from '../../domain/search/channel-members.port';
import { searchUsers, type SearchUsersDeps } from '../../domain/search/search-users.usecase';
import { actorOf, queryValue, type HttpContext } from './http-context';
import { presentUsers } from './presenters';
import { searchUsersBody, type SearchUsersBody } from './users-search.schemas';

const ID = /^[a-z0-9]{26}$/;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

/** `POST /users/search` and `GET /users/autocomplete` (mattermost-wire-3.md §2.5). */
export function usersSearchRoutes(ctx: HttpContext, channelMembers: ChannelMemberIds): Router {
  const deps: SearchUsersDeps = { ...ctx.deps, channelMembers };
  const router = Router();
  const present = (actor: ReturnType<typeof actorOf>, views: Parameters<typeof presentUsers>[0]) => presentUsers(views, actor.userId, isAdmin(actor), deps.liveConfig.current());

  router.post('/api/v4/users/search', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = validate(searchUsersBody, req.body ?? {}) as SearchUsersBody;
    if (body.term === undefined || body.term.trim() === '') throw commonErrors.invalidBodyParam('term');
    const limit = body.limit === undefined || body.limit === 0 ? DEFAULT_LIMIT : body.limit;
    if (limit < 1 || limit > MAX_LIMIT) throw commonErrors.invalidBodyParam('limit');
    const opt = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);
    const views = await searchUsers(deps, actor, {
      term: body.term,
      ...(opt(body.team_id) ? { teamId: body.team_id } : {}),
      ...(opt(body.not_in_team_id) ? { notInTeamId: body.not_in_team_id } : {}),
      ...(opt(body.in_channel_id) ? { inChannelId: body.in_channel_id } : {}),
      ...(opt(body.not_in_channel_id) ? { notInChannelId: body.not_in_channel_id } : {}),
      allowInactive: body.allow_inactive ?? false,
      withoutTeam: body.without_team ?? false,
      limit,
    });
    sendJson(res, 200, present(actor, views));
  });

  router.get('/api/v4/users/autocomplete', async (req, res) => {
    const actor = actorOf(req);
    const idQuery = (name: string): string | undefined => {
      const value = queryValue(req, name);
      if (value === undefined || value === '') return undefined;
      if (!ID.test(value)) throw commonErrors.invalidUrlParam(name);
      return value;
    };
    const inTeam = idQuery('in_team');
    const inChannel = idQuery('in_channel');
    const rawLimit = queryValue(req, 'limit');
    const parsed = rawLimit === undefined || rawLimit === '' ? DEFAULT_LIMIT : goAtoi(rawLimit);
    const limit = parsed === undefined || parsed <= 0 ? DEFAULT_LIMIT : Math.min(parsed, MAX_LIMIT);
    const result = await autocompleteUsers(deps, actor, { name: queryValue(req, 'name') ?? '', ...(inTeam ? { inTeam } : {}), ...(inChannel ? { inChannel } : {}), limit });
    sendJson(res, 200, { users: present(actor, result.users), ...(result.outOfChannel ? { out_of_channel: present(actor, result.outOfChannel) } : {}) });
  });

  return router;
}
