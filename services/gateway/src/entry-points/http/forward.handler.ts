import { propagation } from '@opentelemetry/api';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { isFileDownload } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { discardRest, loggablePath, signIdentity, type InternalResponse, type Keys, type ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { SelfAnswerCache, StoredAnswer } from '../../domain/self-answer-cache';
import type { WaitingRequests } from '../../domain/waiting-requests';
import { clientResponseHeaders, upstreamRequestHeaders } from './forward-headers';
import { clientIp, gatewayLocals } from './gateway-locals';
import { ClientGone } from './client-gone';
import { withTimeout } from './with-timeout';

export interface ForwardDeps {
  readonly transport: ServiceTransport;
  readonly secret: Keys;
  readonly timeoutMs: number;
  readonly logger: Logger;
  /** Drops the cached sessions of users a service says it just changed (before the client gets the answer). */
  readonly evictUsers?: (userIds: readonly string[]) => Promise<void>;
  /** Reused `GET /api/v4/users/me` answers per session (see SelfAnswerCache). */
  readonly selfAnswers?: SelfAnswerCache;
  /** Requests of routes that wait (long-polls) held at once, bounded: one more is answered 503 at once. */
  readonly waiting?: WaitingRequests;
}

/** The one answer the gateway may reuse: an unconditional read of the caller's own user. */
function isSelfRead(req: Request): boolean {
  return req.method === 'GET' && req.originalUrl === '/api/v4/users/me' && req.headers['if-none-match'] === undefined;
}

function writeAnswer(req: Request, res: Response, requestId: string, answer: StoredAnswer, upstreamLength: string | string[] | undefined): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('X-Request-ID', requestId);
  if (answer.status === 204 || answer.status === 304) {
    res.end();
    return;
  }
  if (req.method === 'HEAD') {
    if (typeof upstreamLength === 'string') res.setHeader('Content-Length', upstreamLength);
    res.end();
    return;
  }
  res.setHeader('Content-Length', answer.body.length);
  res.end(answer.body);
}

/**
 * A streamed answer (file bytes): the head at once, then the body piped through as the client takes it
 * (its pace reaches the service), so a download is never held whole. A client gone midway stops the
 * service's reads; a service failing midway cuts the connection (the client sees a short body, never a
 * clean end).
 */
async function writeStreamed(req: Request, res: Response, requestId: string, upstream: InternalResponse & { readonly stream: Readable }, logger: Logger): Promise<void> {
  res.status(upstream.status);
  for (const [name, value] of Object.entries(clientResponseHeaders(upstream.headers))) res.setHeader(name, value);
  const length = upstream.headers['content-length'];
  if (typeof length === 'string' && upstream.status !== 204 && upstream.status !== 304) res.setHeader('Content-Length', length);
  res.setHeader('X-Request-ID', requestId);
  if (req.method === 'HEAD' || upstream.status === 204 || upstream.status === 304) {
    upstream.stream.destroy();
    res.end();
    return;
  }
  await pipeline(upstream.stream, res).catch((error: unknown) => {
    logger.debug('streamed answer cut short', { request_id: requestId, method: req.method, path: loggablePath(req.path), error });
  });
}

/** The body to send on: the streamed one (uploads) with the client's length, else the bytes read. */
function bodyOf(req: Request): { body?: Buffer | Readable; bodyLength?: number } {
  if (req.bodyStream) {
    const length = req.headers['content-length'];
    return { body: req.bodyStream, ...(length !== undefined ? { bodyLength: Number(length) } : {}) };
  }
  return req.rawBody ? { body: req.rawBody } : {};
}

/** The answer to a streamed body the cap cut: its error; the rest of the body is thrown away (bounded). */
function cutShort(req: Request, failure: Error): Error {
  discardRest(req);
  return failure;
}

/** Internal response header: users whose sessions the request changed (see users-bots' affected-users). */
export const AFFECTED_USERS_HEADER = 'x-switchyard-affected-users';

/**
 * Sends the request to its service (method, path and query, raw body, filtered headers, request id and
 * signed identity) and writes the answer back unchanged. A service that cannot be reached, or does not
 * answer in time, is 503 api.context.server_busy.app_error. With `waiting`, a request of a route that waits
 * beyond the requests of such routes held at once is 503 api.events.too_many_waiting.app_error at once.
 */
export function forward(deps: ForwardDeps) {
  const send = forwardOne(deps);
  const waiting = deps.waiting;
  if (!waiting) return send;
  // The place is given back when the forward settles: chained, so a waiting poll keeps no suspended frame here.
  const left = (): void => waiting.leave();
  const failed = (error: unknown): never => {
    waiting.leave();
    throw error;
  };
  return (req: Request, res: Response): Promise<void> => {
    if (gatewayLocals(res).route?.waits !== true) return send(req, res);
    if (!waiting.enter()) return Promise.reject(commonErrors.tooManyWaiting());
    return send(req, res).then(left, failed);
  };
}

/**
 * One forward. Until the service answers (a long-poll: up to a minute) it is a promise chain, not a suspended
 * async function: what a waiting request keeps here (the variables the answer needs, two closures) is
 * multiplied by every poll waiting at once.
 */
function forwardOne(deps: ForwardDeps) {
  return (req: Request, res: Response): Promise<void> => {
    const { route, identity } = gatewayLocals(res);
    if (!route) return Promise.reject(commonErrors.routeNotFound(req.originalUrl));
    const requestId = req.requestId ?? '';
    const selfAnswers = deps.selfAnswers;
    const selfKey = selfAnswers?.enabled && identity && isSelfRead(req) ? identity.sessionId : undefined;
    if (selfAnswers && selfKey !== undefined) {
      const hit = selfAnswers.get(selfKey);
      if (hit) {
        writeAnswer(req, res, requestId, hit, undefined);
        return Promise.resolve();
      }
    }
    const mark = selfAnswers?.mark() ?? 0;
    let pending: Promise<InternalResponse>;
    let signal: ClientGone | undefined;
    const stream = req.bodyStream;
    let download: boolean;
    try {
      const headers = upstreamRequestHeaders(req.headers, {
        requestId,
        clientIp: clientIp(req),
        protocol: req.protocol,
        // Bound to this request: the method and the canonical target forwarded below, byte for byte.
        identity: identity ? signIdentity(identity, deps.secret, { method: req.method, target: req.originalUrl }) : {},
        ownTraceHeaders: propagation.fields(),
      });
      download = isFileDownload(req.method, req.originalUrl.split('?')[0] ?? '');
      signal = route.waits ? new ClientGone(res) : undefined;
      pending = deps.transport.send(route.service, { method: req.method, path: req.originalUrl, headers, ...bodyOf(req), ...(download ? { streamResponse: true } : {}), ...(signal ? { signal } : {}) });
    } catch (error) {
      return Promise.reject(error);
    }
    const unanswered = (error: unknown): void => {
      // The client left a long-poll: nobody to answer.
      if (signal?.aborted) return;
      // An answer that comes after the timeout is nobody's: its stream is let go (the service stops writing).
      if (download) pending.then((late) => late.stream?.destroy(), () => undefined);
      if (stream?.failure) throw cutShort(req, stream.failure);
      deps.logger.warn('service unavailable', { request_id: requestId, service: route.service, method: req.method, path: loggablePath(req.path), error });
      throw commonErrors.serverBusy();
    };
    return withTimeout(pending, deps.timeoutMs).then((upstream) => answer(deps, req, res, upstream, { requestId, selfKey, mark }), unanswered);
  };
}

/** Writes the service's answer back (after its effects on the gateway: changed users' sessions, `beforeSuccess`). */
async function answer(deps: ForwardDeps, req: Request, res: Response, upstream: InternalResponse, call: { readonly requestId: string; readonly selfKey: string | undefined; readonly mark: number }): Promise<void> {
  const { requestId, selfKey, mark } = call;
  const stream = req.bodyStream;
  // The cap cut the streamed body: the client gets the cap's answer (413), whatever the service made of the rest.
  if (stream?.failure) throw cutShort(req, stream.failure);
  // A streamed body the service answered before reading it all: the rest is thrown away (bounded).
  if (stream && !req.complete) discardRest(req);
  const { [AFFECTED_USERS_HEADER]: affected, ...upstreamHeaders } = upstream.headers;
  if (affected !== undefined && deps.evictUsers) {
    const userIds = (Array.isArray(affected) ? affected.join(',') : affected).split(',').map((id) => id.trim()).filter((id) => id !== '');
    await deps.evictUsers(userIds).catch((error: unknown) => deps.logger.warn('evicting changed users from the token cache failed', { request_id: requestId, error }));
  }
  const beforeSuccess = gatewayLocals(res).beforeSuccess;
  if (beforeSuccess && upstream.status >= 200 && upstream.status < 300) await beforeSuccess();
  if (upstream.stream) {
    await writeStreamed(req, res, requestId, { ...upstream, headers: upstreamHeaders, stream: upstream.stream }, deps.logger);
    return;
  }
  const stored: StoredAnswer = { status: upstream.status, headers: clientResponseHeaders(upstreamHeaders), body: upstream.body };
  // Only a plain 200 of the caller's own user, that changed no user and sets no cookie, is reused.
  const selfAnswers = deps.selfAnswers;
  const identity = gatewayLocals(res).identity;
  if (selfAnswers && selfKey !== undefined && identity && stored.status === 200 && affected === undefined && stored.headers['set-cookie'] === undefined) {
    selfAnswers.set(selfKey, identity.userId, stored, mark);
  }
  writeAnswer(req, res, requestId, stored, upstream.headers['content-length']);
}
