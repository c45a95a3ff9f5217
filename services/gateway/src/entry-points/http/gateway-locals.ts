import type { Request, Response } from 'express';
import type { ResolvedSession } from '@switchyard/contracts';
import type { Identity } from '@switchyard/http-kit';
import type { RouteMatch } from '../../domain/route-matcher';
import { extractToken, type FoundToken } from '../../domain/token-extraction';

/** What the gateway's middlewares learn about one request, kept in `res.locals`. */
export interface GatewayLocals {
  route?: RouteMatch;
  /** undefined: not looked for yet; null: none. */
  token?: FoundToken | null;
  identity?: Omit<Identity, 'issuedAt'>;
  /** The request token's resolution, started once (the rate limiter and authentication share it). */
  resolution?: Promise<ResolvedSession | undefined>;
  /** Awaited before a successful answer is sent (e.g. until a config write reached this gateway's live config). */
  beforeSuccess?: () => Promise<void>;
}

export function gatewayLocals(res: Response): GatewayLocals {
  return res.locals as GatewayLocals;
}

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** The request's auth token (cookie, then Authorization, then access_token), looked for once. */
export function requestToken(req: Request, res: Response): FoundToken | undefined {
  const locals = gatewayLocals(res);
  if (locals.token === undefined) {
    const query = req.query as Record<string, unknown>;
    locals.token =
      extractToken({
        cookie: req.headers.cookie,
        authorization: req.headers.authorization,
        accessToken: firstString(query.access_token),
      }) ?? null;
  }
  return locals.token ?? undefined;
}

/** The client's address (from X-Forwarded-For only when TRUST_PROXY is set, via express's `trust proxy`). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? '';
}

/** Resolves the request's token once per request, whoever asks first (a rejection is shared too). */
export function resolveOnce(res: Response, token: string, resolve: (token: string) => Promise<ResolvedSession | undefined>): Promise<ResolvedSession | undefined> {
  const locals = gatewayLocals(res);
  locals.resolution ??= resolve(token);
  return locals.resolution;
}
