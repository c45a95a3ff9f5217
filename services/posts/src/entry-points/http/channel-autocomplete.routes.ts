import type { Request } from 'express';
import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { Joi, parseJsonBody, validate } from '@switchyard/validation';
import { autocompleteChannelsForSearch, autocompleteTeamChannels, searchArchivedTeamChannels } from '../../domain/search/channel-autocomplete.usecase';
import { searchTeamChannels } from '../../domain/search/search-channels.usecase';
import { searchGroupChannels } from '../../domain/search/search-group-channels.usecase';
import { actorOf, idParam, queryValue, type HttpContext } from './http-context';
import { presentChannel } from './presenters';

/** The most characters of a term or name looked at (bounded work; longer ones match nothing anyway). */
const MAX_TERM = 1_000;

/** `ChannelSearch` as these routes read it: only `term` (other fields are ignored, as the reference). */
const termBody = Joi.object({ term: Joi.string().allow('').max(100_000) }).unknown(true);

const invalidSearch = (detail = '') => commonErrors.invalidBodyParam('channel_search', detail);

/**
 * The body decoded as the reference's `json.Decode(&ChannelSearch)`: no body, malformed JSON, not an object
 * (`null`, an array) or a wrong type is 400 invalid_body_param `channel_search` (the reference's SetInvalidParam). The term is cut at 1,000 characters.
 */
export function channelSearchTerm(req: Request): string {
  let raw: unknown;
  try {
    raw = req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
  } catch {
    throw invalidSearch();
  }
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidSearch();
  const body = validate(termBody, raw, { onError: (_key, detail) => invalidSearch(detail) }) as { term?: string };
  return (body.term ?? '').slice(0, MAX_TERM);
}

const nameQuery = (req: Request): string => (queryValue(req, 'name') ?? '').slice(0, MAX_TERM);

/**
 * Team channel search, archived search and the two autocompletes, and the group message search
 * (mattermost-wire-3.md §2.6). Before the channel routes: `/channels/group/search` is not a channel id.
 */
export function channelAutocompleteRoutes(ctx: HttpContext): Router {
  const router = Router();
  const [readBody] = ctx.withBody;
  if (!readBody) return router;

  router.post('/api/v4/teams/:team_id/channels/search', readBody, async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const term = channelSearchTerm(req);
    sendJson(res, 200, (await searchTeamChannels(ctx.deps, actorOf(req), teamId, term)).map(presentChannel));
  });

  router.post('/api/v4/teams/:team_id/channels/search_archived', readBody, async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const term = channelSearchTerm(req);
    sendJson(res, 200, (await searchArchivedTeamChannels(ctx.deps, actorOf(req), teamId, term)).map(presentChannel));
  });

  router.get('/api/v4/teams/:team_id/channels/autocomplete', async (req, res) => {
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, (await autocompleteTeamChannels(ctx.deps, actorOf(req), teamId, nameQuery(req))).map(presentChannel));
  });

  router.get('/api/v4/teams/:team_id/channels/search_autocomplete', async (req, res) => {
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, (await autocompleteChannelsForSearch(ctx.deps, actorOf(req), teamId, nameQuery(req))).map(presentChannel));
  });

  router.post('/api/v4/channels/group/search', readBody, async (req, res) => {
    const actor = actorOf(req);
    const term = channelSearchTerm(req);
    sendJson(res, 200, (await searchGroupChannels(ctx.deps, actor, term)).map(presentChannel));
  });

  return router;
}
