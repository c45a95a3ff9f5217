import { Router } from 'express';
import { sendJson } from '@switchyard/http-kit';
import { Joi, validate } from '@switchyard/validation';
import { searchTeamChannels } from '../../domain/search/search-channels.usecase';
import { actorOf, idParam, type HttpContext } from './http-context';
import { presentChannel } from './presenters';

const searchChannelsBody = Joi.object({ term: Joi.string().allow('').max(1_000) }).unknown(true).required();

/** `POST /teams/{team_id}/channels/search` (mattermost-wire-3.md §2.6). */
export function channelsSearchRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.post('/api/v4/teams/:team_id/channels/search', ...ctx.withBody, async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const body = validate(searchChannelsBody, req.body ?? {}) as { term?: string };
    sendJson(res, 200, (await searchTeamChannels(ctx.deps, actorOf(req), teamId, body.term ?? '')).map(presentChannel));
  });
  return router;
}
