import type { Request, RequestHandler } from 'express';
import { AppError, badRequest, commonErrors } from '@switchyard/errors';
import { requireIdentity, sendJson } from '@switchyard/http-kit';
import { systemClock } from '@switchyard/ids';
import { Joi, validate } from '@switchyard/validation';
import type { MembershipCache } from '../../domain/membership-cache';
import type { StreamPosition } from '../../domain/stream/cursor';
import type { EventCursors } from '../../domain/stream/event-cursors';
import { CursorExpiredError } from '../../domain/stream/history';
import { LEFT, LongPolls, TooManyWaitingError } from '../../domain/stream/long-polls';
import type { Clock, UserSource } from '../../domain/ports';
import { Usernames } from '../../domain/stream/usernames';

export interface EventsRoutesDeps {
  readonly cursors: EventCursors;
  readonly users: UserSource;
  /** Which waiting polls a post may concern (its channel's cached members). */
  readonly membership: MembershipCache;
  /** Long-polls waiting at most at once; more are answered 503 at once. */
  readonly maxWaiting: number;
  readonly clock?: Clock;
}

interface EventsQuery {
  readonly cursor?: string;
  readonly wait: number;
  readonly limit: number;
}

const eventsQuery = Joi.object<EventsQuery>({
  cursor: Joi.string().allow('').max(4096),
  wait: Joi.number().integer().min(0).max(60).default(30),
  limit: Joi.number().integer().min(1).max(1000).default(100),
});

/** The longest wait, just under the gateway's upstream timeout (UPSTREAM_TIMEOUT_MS, 60 s): `wait=60` is answered in time. */
const MAX_WAIT_MS = 59_500;

const cursorInvalid = (): AppError => badRequest('api.events.cursor_invalid.app_error', 'The event cursor is not valid for this user.');
const cursorExpired = (): AppError =>
  new AppError('validation', { id: 'api.events.cursor_expired.app_error', message: 'The event cursor is older than the events kept; resynchronise over the REST API.', statusCode: 410 });

const QUERY_KEYS = new Set(['cursor', 'wait', 'limit']);

/** The query when it is plainly valid (every long-poll asks again: joi costs a tenth of a poll); else undefined. */
function plainQuery(raw: Record<string, unknown>): EventsQuery | undefined {
  for (const key in raw) if (!QUERY_KEYS.has(key)) return undefined;
  const { cursor, wait, limit } = raw;
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 4096)) return undefined;
  const number = (value: unknown, min: number, max: number, fallback: number): number | undefined => {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^\d{1,4}$/.test(value)) return undefined;
    const n = Number(value);
    return n >= min && n <= max ? n : undefined;
  };
  const w = number(wait, 0, 60, 30);
  const l = number(limit, 1, 1000, 100);
  if (w === undefined || l === undefined) return undefined;
  return { ...(cursor !== undefined ? { cursor } : {}), wait: w, limit: l };
}

function query(req: Request): EventsQuery {
  const raw = req.query as Record<string, unknown>;
  const plain = plainQuery(raw);
  if (plain) return plain;
  const numbers: Record<string, unknown> = { ...raw };
  for (const key of ['wait', 'limit']) {
    const value = raw[key];
    if (typeof value === 'string' && /^\d{1,6}$/.test(value)) numbers[key] = Number(value);
  }
  return validate(eventsQuery, numbers, { onError: (key) => commonErrors.invalidParam(key) });
}

/**
 * `GET /api/v4/events?cursor=&wait=&limit=` (spec: "Event stream over HTTP"): the events after the cursor
 * that the caller may see, as the WebSocket frames' objects with their cursors, and the next cursor. Without
 * a cursor: none, and the cursor of now. With nothing new it waits up to `wait` s for the next events.
 * Mounted on the service's app itself (`app.get(EVENTS_PATH, eventsHandler(...))`), not through a router of
 * its own: a waiting poll keeps the routers it went through (their `next`), one level more per router.
 */
export const EVENTS_PATH = '/api/v4/events';

/**
 * The handler of `GET /api/v4/events`. A waiting poll is held by promise reactions only (no suspended async
 * function, no `once` wrapper): what it keeps is multiplied by every poll waiting at once.
 */
export function eventsHandler(deps: EventsRoutesDeps): RequestHandler {
  const usernames = new Usernames(deps.users, deps.clock ?? systemClock);
  const polls = new LongPolls(deps.cursors, deps.membership, { maxWaiting: deps.maxWaiting });
  return (req, res, next) => {
    let userId: string;
    let isAdmin: boolean;
    let found: { position: StreamPosition; limit: number; waitMs: number } | undefined;
    try {
      const identity = requireIdentity(req);
      userId = identity.userId;
      isAdmin = identity.roles.split(' ').includes('system_admin');
      found = checkedQuery(deps.cursors, query(req), userId);
    } catch (error) {
      next(error);
      return;
    }
    if (!found) {
      sendJson(res, 200, { events: [], cursor: deps.cursors.current(userId) });
      return;
    }
    const { position, limit, waitMs } = found;
    // The client leaving (its connection closed before the answer) ends the wait at once (the poll resolves with LEFT).
    const onLeave = (leave: () => void): void => {
      if (res.destroyed) leave();
      else res.on('close', leave);
    };
    usernames
      .of(userId)
      .then((username) => polls.poll({ userId, isAdmin, username }, position, limit, waitMs, onLeave))
      .then(
        (batch) => {
          if (batch !== LEFT && !res.headersSent) sendJson(res, 200, batch);
        },
        (error: unknown) => next(answerError(error)),
      );
  };
}

/** The cursor given, checked for its user (400 invalid, 410 expired), with the limit and wait; undefined without a cursor. */
function checkedQuery(cursors: EventCursors, { cursor, wait, limit }: EventsQuery, userId: string): { position: StreamPosition; limit: number; waitMs: number } | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const checked = cursors.check(cursor, userId);
  if (checked.status === 'expired') throw cursorExpired();
  if (checked.status !== 'complete' || !checked.position) throw cursorInvalid();
  return { position: checked.position, limit, waitMs: Math.min(wait * 1000, MAX_WAIT_MS) };
}

/** The log no longer has what the cursor needs (its retention is shorter than the cursor's age): 410; too many waiting: 503. */
function answerError(error: unknown): unknown {
  if (error instanceof CursorExpiredError) return cursorExpired();
  if (error instanceof TooManyWaitingError) return commonErrors.tooManyWaiting();
  return error;
}
