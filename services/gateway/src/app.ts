import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { FILE_UPLOAD_SLACK_BYTES, FILE_UPLOAD_TOO_LARGE, isFileUpload, isHookUpload, pictureUploadRoute, Services, Topics } from '@switchyard/contracts';
import { commonErrors, payloadTooLarge, type AppError } from '@switchyard/errors';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { createHttpApp, internalKeys, rawBody, streamedBody, supportsUpgrade, type HealthReport, type ServiceTransport, type UpgradeHandler } from '@switchyard/http-kit';
import { configEventsConsumer, HttpConfigSource, LiveConfig } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView, type ConfigView } from '@switchyard/system-config';
import { HttpSessionSource } from './adapters/http/session-source.http';
import { createMemoryRateLimiter } from './adapters/memory/rate-limiter.memory';
import { MemoryTokenCache } from './adapters/memory/token-cache.memory';
import type { GatewayConfig } from './config';
import type { RateLimiter, TokenCache } from './domain/ports';
import { decidePath } from './domain/canonical-path';
import { RouteMatcher } from './domain/route-matcher';
import { ROUTE_TABLE, SESSION_OPTIONAL } from './domain/route-table';
import { SelfAnswerCache } from './domain/self-answer-cache';
import { SessionResolver } from './domain/session-resolver';
import { versionId } from './domain/version-id';
import { authenticate } from './entry-points/http/authenticate.middleware';
import { consoleStaticRoutes } from './entry-points/http/console-static.routes';
import { canonicalPath } from './entry-points/http/canonical-path.middleware';
import { configWriteBarrier } from './entry-points/http/config-write-barrier.middleware';
import { forward } from './entry-points/http/forward.handler';
import { GATEWAY_PIPELINE, mountPipeline, routerOnlyPaths, shortcutChain, type StageHandlers } from './entry-points/http/pipeline';
import { ping } from './entry-points/http/ping.routes';
import { rateLimit } from './entry-points/http/rate-limit.middleware';
import { routeMatch } from './entry-points/http/route-match.middleware';
import { standardHeaders } from './entry-points/http/standard-headers.middleware';
import { withTimeout } from './entry-points/http/with-timeout';
import { WaitingRequests } from './domain/waiting-requests';
import { usersEventsConsumer } from './entry-points/kafka/users-events.consumer';
import { websocketUpgrade } from './entry-points/upgrade/websocket-upgrade';

export interface GatewayDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** How services are reached: in-process (embedded) or HTTP pools (distributed). */
  readonly transport: ServiceTransport;
  /** Defaults to a bounded in-memory cache. */
  readonly tokenCache?: TokenCache;
  /** Defaults to the in-memory GCRA limiter. */
  readonly rateLimiter?: RateLimiter;
  /** The services running behind this gateway; routes to any other service are 404. */
  readonly services: readonly string[];
  /**
   * Routes of the runtime itself (embedded: `GET /api/v4/system/backup`), run after the path decision;
   * only for paths the route table gives no service (requests for a service's route go straight to it).
   */
  readonly edgeRoutes?: RequestHandler;
  /**
   * Long-polls (routes that wait) held at once; more are answered 503 at once. Default: the config's
   * LONG_POLL_MAX_WAITING, else no bound of the gateway's own.
   */
  readonly maxWaitingPolls?: number;
}

export interface GatewayApp {
  readonly handler: RequestListener;
  /** WebSocket upgrades (`GET /api/v4/websocket`, handed to realtime); attach to the server's `upgrade` event. */
  readonly upgrade: UpgradeHandler;
  /** The live system config (loaded from users-bots, replaced on config.updated). */
  readonly config: ConfigView;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

const PING_TIMEOUT_MS = 3_000;
/** One readiness check's bound: under the probe's 2 s timeout (ADR 0025). */
const HEALTH_CHECK_TIMEOUT_MS = 1_000;

/**
 * Whether the router would run this request through the path decision straight to the service chain: its
 * canonical target routes to a service running here, and it is under no stage that leaves its requests to
 * the router (the config write barrier). The stages that never take a service request are declared so in
 * GATEWAY_PIPELINE (pipeline.test.ts checks their paths). Path matching in express is case-insensitive, the
 * route table is not: every routed path starts with `/api/v4/` or `/hooks/` as written, and the router-only
 * prefixes are compared lower-cased.
 */
function goesStraightToService(method: string, url: string, matcher: RouteMatcher, registered: ReadonlySet<string>): boolean {
  const decision = decidePath(url);
  if (decision.kind !== 'forward') return false;
  const q = decision.target.indexOf('?');
  const path = (q >= 0 ? decision.target.slice(0, q) : decision.target).toLowerCase();
  if (ROUTER_ONLY.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false;
  const route = matcher.match(method, decision.target);
  return route !== undefined && registered.has(route.service);
}

/** Lower-cased paths whose requests stay on the router. */
const ROUTER_ONLY = routerOnlyPaths(GATEWAY_PIPELINE);

const pictureUpload = (req: Request) => pictureUploadRoute(req.method, req.originalUrl.split('?')[0] ?? '');

function pictureUploadTooLarge(req: Request): AppError | undefined {
  const route = pictureUpload(req);
  return route && payloadTooLarge(route.tooLarge.id, route.tooLarge.message);
}

const fileUpload = (req: Request): boolean => isFileUpload(req.method, req.originalUrl.split('?')[0] ?? '');

/** A multipart `POST /hooks/{key}` may carry files (README "Files on incoming hooks"): the upload's cap when larger. */
const hookUpload = (req: Request): boolean => isHookUpload(req.method, req.originalUrl.split('?')[0] ?? '', req.headers['content-type']);
const hookUploadLimit = (view: ConfigView): number => Math.max(view.current().FileSettings.MaxFileSize + FILE_UPLOAD_SLACK_BYTES, view.current().ServiceSettings.MaximumPayloadSizeBytes);

/**
 * How a service request's body is taken: file uploads stream on to posts, capped at MaxFileSize + 512
 * (ADR 0029: never held whole), and so do multipart hook requests (they may carry files) to incoming-hooks,
 * which reads past MaximumPayloadSizeBytes only for a known hook's key; every other body is read first,
 * capped at its route's limit (pictures) or MaximumPayloadSizeBytes.
 */
function bodyOf(view: ConfigView): RequestHandler {
  const fileTooLarge = () => payloadTooLarge(FILE_UPLOAD_TOO_LARGE.id, FILE_UPLOAD_TOO_LARGE.message);
  const streamed = streamedBody(() => view.current().FileSettings.MaxFileSize + FILE_UPLOAD_SLACK_BYTES, fileTooLarge);
  const streamedHook = streamedBody(() => hookUploadLimit(view), fileTooLarge);
  const read = rawBody(
    (req) => pictureUpload(req)?.limit ?? view.current().ServiceSettings.MaximumPayloadSizeBytes,
    (req) => pictureUploadTooLarge(req) ?? commonErrors.bodyTooLarge(),
  );
  return (req, res, next) => (fileUpload(req) ? streamed(req, res, next) : hookUpload(req) ? streamedHook(req, res, next) : read(req, res, next));
}

/** Composition root of the public edge: routing, auth, rate limits, body limit, standard headers. */
export function createGatewayApp(config: GatewayConfig, deps: GatewayDeps): GatewayApp {
  const keys = internalKeys(config);
  const logger = deps.logger;
  const view = new MutableConfigView();
  const tokenCache = deps.tokenCache ?? new MemoryTokenCache({ maxEntries: config.TOKEN_CACHE_MAX_ENTRIES });
  const limiter = deps.rateLimiter ?? createMemoryRateLimiter();
  const maxWaitingPolls = deps.maxWaitingPolls ?? config.LONG_POLL_MAX_WAITING;
  const liveConfig = new LiveConfig({ view, source: new HttpConfigSource(deps.transport, keys, 'gateway'), logger });
  const resolver = new SessionResolver({
    cache: tokenCache,
    source: new HttpSessionSource(deps.transport, keys),
    logger,
    ttlMs: config.TOKEN_CACHE_TTL_MS,
    // Human access tokens stop at once when EnableUserAccessTokens is switched off; bot tokens are exempt.
    stillAllowed: (session) => session.isBot || session.sessionType !== 'UserAccessToken' || view.current().ServiceSettings.EnableUserAccessTokens,
  });
  const matcher = new RouteMatcher(ROUTE_TABLE, SESSION_OPTIONAL);
  const selfAnswers = new SelfAnswerCache({ ttlMs: config.USERS_ME_CACHE_TTL_MS, maxEntries: config.TOKEN_CACHE_MAX_ENTRIES });
  const evictUser = async (userId: string): Promise<void> => {
    selfAnswers.evictUser(userId);
    await resolver.evictUser(userId);
  };

  let currentVersionId = versionId(config.BUILD_NUMBER, view.current());
  view.onChange((next) => {
    currentVersionId = versionId(config.BUILD_NUMBER, next);
    selfAnswers.clear();
  });

  const health = async (): Promise<HealthReport> => {
    // Each check bounded (1 s): a dependency that is down may hang its check past the probe's 2 s timeout.
    const [bus, cache, rate] = await Promise.all([deps.bus.health(), tokenCache.health(), limiter.health()].map((p) => withTimeout(p, HEALTH_CHECK_TIMEOUT_MS).catch(() => false)));
    const checks = { config: liveConfig.loaded, bus: bus === true, tokenCache: cache === true, rateLimiter: rate === true };
    // Redis (token cache, rate limits) and Kafka are reported but do not unready the gateway (ADR 0025):
    // without Redis the token cache falls back to users-bots and rate limits fail open; without Kafka it
    // forwards requests as before (the services answer for what needs the bus). Every gateway pod shares
    // both: going unready on them would turn a dependency blip into a full outage of the public port.
    return { ok: checks.config, checks };
  };

  const http = createHttpApp({ service: 'gateway', logger, ready: health, developerMode: () => view.current().ServiceSettings.EnableDeveloper });
  const app = http.app;
  app.set('trust proxy', config.TRUST_PROXY);
  const registered = new Set(deps.services);
  const realtimeHere = deps.services.includes(Services.realtime) && supportsUpgrade(deps.transport);
  const upgrade = websocketUpgrade({
    resolver,
    config: view,
    logger,
    transport: realtimeHere && supportsUpgrade(deps.transport) ? deps.transport : undefined,
    secret: keys,
    versionId: () => currentVersionId,
    trustProxy: config.TRUST_PROXY,
  });
  // Each stage of GATEWAY_PIPELINE (the order, and what it does with service requests) gets its handlers here.
  const stages: StageHandlers = {
    // Every request: standard headers, rate limit, path decision (ADR 0006).
    standardHeaders: [standardHeaders(() => currentVersionId)],
    rateLimit: [rateLimit({ limiter, config: view, logger, resolve: (token, log) => resolver.resolve(token, log) })],
    // A plain GET of the WebSocket route: what the reference's websocket library answers.
    websocketGet: realtimeHere
      ? [
          (_req, res) => {
            res.status(400).set({ 'content-type': 'text/plain; charset=utf-8', 'sec-websocket-version': '13' }).send('Bad Request\n');
          },
        ]
      : undefined,
    canonicalPath: [canonicalPath()],
    edgeRoutes: deps.edgeRoutes ? [deps.edgeRoutes] : undefined,
    ping: [ping({ transport: deps.transport, services: deps.services, selfReady: async () => (await health()).ok, timeoutMs: PING_TIMEOUT_MS })],
    configWriteBarrier: [configWriteBarrier({ liveConfig, timeoutMs: config.CONFIG_WRITE_TIMEOUT_MS, settleMs: config.CONFIG_WRITE_SETTLE_MS })],
    // A request for a service's route: route match, body (picture uploads have their own, larger limit and 413 id), identity, forward.
    toService: [
      routeMatch(matcher, registered),
      bodyOf(view),
      authenticate({ resolver, config: view, logger }),
      forward({
        transport: deps.transport,
        secret: keys,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        logger,
        evictUsers: async (userIds) => {
          await Promise.all(userIds.map(evictUser));
        },
        selfAnswers,
        ...(maxWaitingPolls === undefined ? {} : { waiting: new WaitingRequests(maxWaitingPolls) }),
      }),
    ],
    consoleStatic: config.CONSOLE_DIR !== '' ? [consoleStaticRoutes(config.CONSOLE_DIR)] : undefined,
  };
  mountPipeline(app, GATEWAY_PIPELINE, stages);
  const handler = http.finalize();
  // The same middlewares without the router's walk, for requests it would hand to the service chain anyway.
  http.shortcut((req) => goesStraightToService(req.method ?? '', req.url ?? '', matcher, registered), shortcutChain(GATEWAY_PIPELINE, stages));

  // Per-instance consumer groups: every gateway replica must see every change.
  const instance = randomBytes(6).toString('hex');
  let subscriptions: Subscription[] = [];

  return {
    handler,
    upgrade,
    config: view,
    start: async () => {
      if (subscriptions.length > 0) return;
      subscriptions = [
        await deps.bus.subscribe({ groupId: `gateway-cache-${instance}`, topics: [Topics.usersEvents], startAt: 'latest', handler: usersEventsConsumer(evictUser, logger) }),
        await deps.bus.subscribe({ groupId: `gateway-config-${instance}`, topics: [Topics.configEvents], startAt: 'latest', handler: configEventsConsumer((doc) => liveConfig.apply(doc), logger) }),
      ];
      await liveConfig.start();
    },
    stop: async () => {
      liveConfig.stop();
      const running = subscriptions;
      subscriptions = [];
      await Promise.all(running.map((s) => s.stop()));
      await limiter.close();
      await tokenCache.close();
    },
    health,
  };
}
