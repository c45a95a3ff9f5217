import { Router, type Request } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { listUserThreads, type ThreadListQuery } from '../../domain/threads/list-user-threads.usecase';
import { setThreadFollowing } from '../../domain/threads/follow-thread.usecase';
import { readAllThreads, readThread, setThreadUnread } from '../../domain/threads/read-thread.usecase';
import { ThreadErrors } from '../../domain/threads/thread-errors';
import { getUserThread } from '../../domain/threads/user-thread.usecase';
import { actorOf, idParam, paging, queryBool, queryValue, userIdParam, type HttpContext } from './http-context';

const UINT64_MAX = 2n ** 64n - 1n;
const INT64_MAX = 2n ** 63n - 1n;

/** `since` as Go's strconv.ParseUint: decimal digits within uint64, else 400 invalid_param `since`. */
function sinceOf(req: Request): number {
  const raw = queryValue(req, 'since') ?? '';
  if (raw === '') return 0;
  if (!/^\d{1,20}$/.test(raw) || BigInt(raw) > UINT64_MAX) throw commonErrors.invalidBodyParam('since');
  return Number(raw);
}

/** The list's query, in the reference's order of checks. */
function listQueryOf(req: Request): ThreadListQuery {
  const since = sinceOf(req);
  const before = queryValue(req, 'before') ?? '';
  const after = queryValue(req, 'after') ?? '';
  const totalsOnly = queryBool(req, 'totalsOnly');
  const threadsOnly = queryBool(req, 'threadsOnly');
  if (before !== '' && after !== '') throw ThreadErrors.beforeAndAfter();
  if (totalsOnly && threadsOnly) throw ThreadErrors.totalsAndThreadsOnly();
  return {
    since,
    before,
    after,
    perPage: paging(req).perPage,
    deleted: queryBool(req, 'deleted'),
    unread: queryBool(req, 'unread'),
    extended: queryBool(req, 'extended'),
    totalsOnly,
    threadsOnly,
    excludeDirect: queryBool(req, 'excludeDirect'),
  };
}

/** `{timestamp:[0-9]+}` as a positive int64 (0 or out of range: 400 invalid_url_param `timestamp`). */
function timestampOf(raw: string): number {
  if (!/^\d{1,19}$/.test(raw) || BigInt(raw) > INT64_MAX || BigInt(raw) === 0n) throw commonErrors.invalidUrlParam('timestamp');
  return Number(raw);
}

const OK = { status: 'OK' };

/** The reference's collapsed-reply-threads API (mattermost-wire-3.md §3.10), `{user_id}` may be `me`. */
export function userThreadsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();
  const base = '/api/v4/users/:user_id/teams/:team_id/threads';

  router.get(base, async (req, res) => {
    const userId = userIdParam(req);
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, await listUserThreads(deps, actorOf(req), userId, teamId, () => listQueryOf(req)));
  });

  router.put(`${base}/read`, async (req, res) => {
    const userId = userIdParam(req);
    const teamId = idParam(req, 'team_id');
    await readAllThreads(deps, actorOf(req), userId, teamId);
    sendJson(res, 200, OK);
  });

  router.get(`${base}/:thread_id`, async (req, res) => {
    const userId = userIdParam(req);
    idParam(req, 'team_id');
    const threadId = idParam(req, 'thread_id');
    sendJson(res, 200, await getUserThread(deps, actorOf(req), userId, threadId, queryBool(req, 'extended')));
  });

  for (const [method, state] of [['put', true], ['delete', false]] as const) {
    router[method](`${base}/:thread_id/following`, async (req, res) => {
      const userId = userIdParam(req);
      const threadId = idParam(req, 'thread_id');
      const teamId = idParam(req, 'team_id');
      await setThreadFollowing(deps, actorOf(req), userId, teamId, threadId, state);
      sendJson(res, 200, OK);
    });
  }

  router.put(`${base}/:thread_id/read/:timestamp`, async (req, res, next) => {
    const raw = String(req.params.timestamp);
    if (!/^[0-9]+$/.test(raw)) return next();
    const userId = userIdParam(req);
    const threadId = idParam(req, 'thread_id');
    const timestamp = timestampOf(raw);
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, await readThread(deps, actorOf(req), userId, teamId, threadId, timestamp));
  });

  router.post(`${base}/:thread_id/set_unread/:post_id`, async (req, res, next) => {
    if (!/^[A-Za-z0-9]+$/.test(String(req.params.post_id))) return next();
    const userId = userIdParam(req);
    const threadId = idParam(req, 'thread_id');
    const postId = idParam(req, 'post_id');
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, await setThreadUnread(deps, actorOf(req), userId, teamId, threadId, postId));
  });

  return router;
}
