import type { Request, Response } from 'express';
import { Router } from 'express';
import { badRequest, commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { parseJsonBody, validate } from '@switchyard/validation';
import { withReplyCounts } from '../../domain/posts/reply-counts';
import type { PostSearchIndex } from '../../domain/search/post-search.port';
import { searchPosts, type SearchDeps, type SearchResult } from '../../domain/search/search-posts.usecase';
import type { SearchScope } from '../../domain/search/search-scope.port';
import type { UserNames } from '../../domain/search/user-names.port';
import { actorOf, idParam, type HttpContext } from './http-context';
import { presentPostList } from './presenters';
import { searchPostsBody, type SearchPostsBody } from './search.schemas';

export interface SearchRouteDeps {
  readonly search: PostSearchIndex;
  readonly scope: SearchScope;
  readonly userNames: UserNames;
}

const MODIFIERS = new Set(['', 'messages', 'files']);
const invalidBody = (detail = '') => badRequest('api.post.search_posts.invalid_body.app_error', 'Unable to parse the search body.', { detailedError: detail });

/** Post search (mattermost-wire-3.md §2.1–2.4): `POST /teams/{team_id}/posts/search` and `POST /posts/search`. */
export function searchRoutes(ctx: HttpContext, search: SearchRouteDeps): Router {
  const deps: SearchDeps = { ...ctx.deps, ...search };
  const router = Router();
  const [readBody] = ctx.withBody;

  const handle = async (req: Request, res: Response, teamId: string | undefined): Promise<void> => {
    const actor = actorOf(req);
    const body = bodyOf(req);
    const result: SearchResult =
      body.modifier === 'files'
        ? { posts: [], matches: {} }
        : await searchPosts(deps, actor, {
            ...(teamId !== undefined ? { teamId } : {}),
            terms: body.terms ?? '',
            isOrSearch: body.is_or_search ?? false,
            timeZoneOffset: body.time_zone_offset ?? 0,
            includeDeletedChannels: body.include_deleted_channels ?? false,
            page: body.page ?? 0,
          });
    const posts = await withReplyCounts(ctx.deps, result.posts);
    res.setHeader('Cache-Control', 'no-cache, no-store, must-revalidate');
    sendJson(res, 200, { ...presentPostList(posts), matches: posts.length > 0 ? result.matches : null });
  };

  if (readBody) {
    router.post('/api/v4/teams/:team_id/posts/search', readBody, async (req, res) => {
      const teamId = idParam(req, 'team_id');
      await handle(req, res, teamId);
    });
    router.post('/api/v4/posts/search', readBody, async (req, res) => handle(req, res, undefined));
  }
  return router;
}

/** The body as the reference reads it: undecodable → invalid_body; `terms` missing or empty → invalid_body_param terms. */
function bodyOf(req: Request): SearchPostsBody {
  let raw: unknown;
  try {
    raw = req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
  } catch {
    throw invalidBody();
  }
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidBody();
  const body = validate(searchPostsBody, raw, { onError: (_key, detail) => invalidBody(detail) }) as SearchPostsBody;
  if (body.terms === undefined || body.terms === '') throw commonErrors.invalidBodyParam('terms');
  if (body.modifier !== undefined && !MODIFIERS.has(body.modifier)) throw commonErrors.invalidBodyParam('modifier');
  return body;
}
