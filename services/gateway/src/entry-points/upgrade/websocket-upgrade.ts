import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Services } from '@switchyard/contracts';
import { commonErrors, toWireError } from '@switchyard/errors';
import { newRequestId, rejectUpgrade, signIdentity, type Keys, type UpgradeHandler, type UpgradeTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { ConfigView } from '@switchyard/system-config';
import type { SessionResolver } from '../../domain/session-resolver';
import { extractToken } from '../../domain/token-extraction';
import { websocketOriginAllowed } from '../../domain/websocket-origin';
import { upstreamRequestHeaders } from '../http/forward-headers';

/** `GET /api/v4/websocket` and its trailing-slash form (mattermost-wire-2.md §1.1). */
export const WEBSOCKET_PATHS: ReadonlySet<string> = new Set(['/api/v4/websocket', '/api/v4/websocket/']);

/** Header telling realtime the `server_version` of its hello events (the gateway's X-Version-Id). */
export const SERVER_VERSION_HEADER = 'x-switchyard-server-version';

export interface WebSocketUpgradeDeps {
  readonly resolver: SessionResolver;
  readonly config: ConfigView;
  readonly logger: Logger;
  /** undefined when no realtime service runs behind this gateway. */
  readonly transport: UpgradeTransport | undefined;
  readonly secret: Keys;
  readonly versionId: () => string;
  readonly trustProxy: boolean;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
}

function rejectWithError(socket: Duplex, error: ReturnType<typeof commonErrors.routeNotFound>, requestId: string): void {
  const body = JSON.stringify(toWireError(error, { requestId, developer: false }));
  rejectUpgrade(socket, error.statusCode, body, 'application/json', { 'X-Request-ID': requestId });
}

/**
 * The public edge of the WebSocket API: checks the path and the Origin, resolves the token of the
 * `MMAUTHTOKEN` cookie or the `Authorization` header (an invalid one is ignored: the socket opens
 * unauthenticated, as the reference's), and hands the upgrade to realtime with the signed identity. A
 * valid token in `access_token` is refused (only OAuth sessions may use it; there are none).
 */
export function websocketUpgrade(deps: WebSocketUpgradeDeps): UpgradeHandler {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    handle(deps, req, socket, head).catch((error: unknown) => {
      deps.logger.warn('websocket upgrade failed', { error: error instanceof Error ? error.message : String(error) });
      rejectUpgrade(socket, 500, 'Internal Server Error');
    });
  };
}

async function handle(deps: WebSocketUpgradeDeps, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const requestId = newRequestId();
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  if (!WEBSOCKET_PATHS.has(url.pathname) || deps.transport === undefined) {
    rejectWithError(socket, commonErrors.routeNotFound(url.pathname), requestId);
    return;
  }
  if (req.method !== 'GET' || (headerValue(req, 'upgrade') ?? '').toLowerCase() !== 'websocket') {
    rejectUpgrade(socket, 400, 'Bad Request\n', 'text/plain; charset=utf-8', { 'Sec-WebSocket-Version': '13' });
    return;
  }
  if (!websocketOriginAllowed(headerValue(req, 'origin'), headerValue(req, 'host'), deps.config.current().ServiceSettings.SiteURL)) {
    deps.logger.info('websocket origin refused', { request_id: requestId });
    rejectUpgrade(socket, 403, 'Forbidden\n');
    return;
  }
  const found = extractToken({
    cookie: headerValue(req, 'cookie'),
    authorization: headerValue(req, 'authorization'),
    accessToken: url.searchParams.get('access_token') ?? undefined,
  });
  let identity: Record<string, string> = {};
  if (found) {
    const session = await deps.resolver.resolve(found.token, deps.logger.child({ request_id: requestId })).catch((error: unknown) => {
      deps.logger.warn('websocket token not checked (users-bots unavailable); opened unauthenticated', { request_id: requestId, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    });
    if (session && found.location === 'query') {
      rejectWithError(socket, commonErrors.tokenProvided(), requestId);
      return;
    }
    if (session) {
      identity = signIdentity(
        {
          userId: session.userId,
          sessionId: session.sessionId,
          roles: session.roles,
          isBot: session.isBot,
          sessionType: session.sessionType,
          ...(session.tokenId === undefined ? {} : { tokenId: session.tokenId }),
          // Signed with the rest: realtime closes the socket when the session ends.
          sessionExpiresAt: session.expiresAt,
        },
        deps.secret,
        // Bound to this upgrade request as realtime receives it (in-process: the same request; proxied:
        // the same request line).
        { method: 'GET', target: req.url ?? '/' },
      );
    }
  }
  const forwarded = headerValue(req, 'x-forwarded-for');
  const clientIp = deps.trustProxy && forwarded ? (forwarded.split(',')[0] ?? '').trim() : (socket as { remoteAddress?: string }).remoteAddress ?? '';
  const headers = upstreamRequestHeaders(req.headers, { requestId, clientIp, protocol: 'http', identity });
  delete headers.cookie;
  delete headers.authorization;
  headers[SERVER_VERSION_HEADER] = deps.versionId();
  const clean: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) clean[name] = value;
  deps.transport.upgrade(Services.realtime, req, socket, head, clean);
}
