import type { Request } from 'express';
import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { Joi, parseJsonBody, validate } from '@switchyard/validation';
import { searchAllChannels, searchOwnChannels, type AllChannelsSearch, type ChannelWithTeam } from '../../domain/search/search-all-channels.usecase';
import { actorOf, type HttpContext } from './http-context';
import { presentChannel } from './presenters';

const id = Joi.string().max(64);
/** `ChannelSearch` as the reference decodes it; a wrong type is the reference's decode error (400 channel_search). */
const allChannelsBody = Joi.object({
  term: Joi.string().allow('').max(100_000),
  team_ids: Joi.array().items(id).max(1_000).allow(null),
  public: Joi.boolean().strict(),
  private: Joi.boolean().strict(),
  deleted: Joi.boolean().strict(),
  include_deleted: Joi.boolean().strict(),
  exclude_default_channels: Joi.boolean().strict(),
  group_constrained: Joi.boolean().strict(),
  exclude_group_constrained: Joi.boolean().strict(),
  exclude_policy_constrained: Joi.boolean().strict(),
  include_search_by_id: Joi.boolean().strict(),
  exclude_remote: Joi.boolean().strict(),
  not_associated_to_group: Joi.string().allow('').max(64),
  page: Joi.number().integer().strict().min(0).max(1_000_000).allow(null),
  per_page: Joi.number().integer().strict().min(0).max(10_000).allow(null),
}).unknown(true);

interface AllChannelsBody {
  term?: string;
  team_ids?: string[] | null;
  public?: boolean;
  private?: boolean;
  deleted?: boolean;
  include_deleted?: boolean;
  exclude_default_channels?: boolean;
  group_constrained?: boolean;
  exclude_policy_constrained?: boolean;
  include_search_by_id?: boolean;
  page?: number | null;
  per_page?: number | null;
}

const invalidSearch = (detail = '') => commonErrors.invalidBodyParam('channel_search', detail);

function allChannelsBodyOf(req: Request): AllChannelsBody {
  let raw: unknown;
  try {
    raw = req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
  } catch {
    throw invalidSearch();
  }
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidSearch();
  return validate(allChannelsBody, raw, { onError: (_key, detail) => invalidSearch(detail) }) as AllChannelsBody;
}

function searchOf(body: AllChannelsBody, includeDeletedQuery: boolean): AllChannelsSearch {
  return {
    term: body.term ?? '',
    ...(body.team_ids ? { teamIds: body.team_ids } : {}),
    public: body.public ?? false,
    private: body.private ?? false,
    deleted: body.deleted ?? false,
    includeDeleted: includeDeletedQuery || (body.include_deleted ?? false),
    excludeDefaultChannels: body.exclude_default_channels ?? false,
    groupConstrained: body.group_constrained ?? false,
    excludePolicyConstrained: body.exclude_policy_constrained ?? false,
    includeSearchById: body.include_search_by_id ?? false,
    ...(typeof body.page === 'number' ? { page: body.page } : {}),
    ...(typeof body.per_page === 'number' ? { perPage: body.per_page } : {}),
  };
}

/** A channel of `ChannelListWithTeamData`: the channel plus its team's display name, name and update time. */
function presentWithTeam({ channel, team }: ChannelWithTeam): Record<string, unknown> {
  return { ...presentChannel(channel), team_display_name: team.display_name, team_name: team.name, team_update_at: team.update_at ?? 0 };
}

/** `true`/`false` (and the other spellings Go's ParseBool takes); anything else undefined. */
function parseBool(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** `POST /channels/search` (mattermost-wire-3.md §2.6; the team search is in channel-autocomplete.routes.ts). */
export function channelsSearchRoutes(ctx: HttpContext): Router {
  const router = Router();
  const [readBody] = ctx.withBody;
  if (readBody) {
    router.post('/api/v4/channels/search', readBody, async (req, res) => {
      const body = allChannelsBodyOf(req);
      const systemConsole = req.query.system_console;
      const fromConsole = systemConsole === undefined || systemConsole === '' ? true : parseBool(systemConsole);
      if (fromConsole === undefined) throw commonErrors.invalidBodyParam('system_console');
      if (!fromConsole) {
        sendJson(res, 200, (await searchOwnChannels(ctx.deps, actorOf(req), body.term ?? '')).map(presentWithTeam));
        return;
      }
      const result = await searchAllChannels(ctx.deps, actorOf(req), searchOf(body, parseBool(req.query.include_deleted) === true));
      const channels = result.channels.map(presentWithTeam);
      sendJson(res, 200, result.paginated ? { channels, total_count: result.totalCount } : channels);
    });
  }
  return router;
}
