import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestListener } from 'node:http';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { identityMiddleware, type HealthReport, type ServiceTransport } from '@switchyard/http-kit';
import { serviceSetup } from '@switchyard/live-config';
import { systemClock } from '@switchyard/ids';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { BusClientEvents, BusHookChanges } from './adapters/bus/bus-publishers';
import { CachingHookRepository } from './adapters/cache/caching-hook-repository';
import { EcdsaTriggerIds } from './adapters/crypto/ecdsa-trigger-ids';
import { HttpIntegrationClient } from './adapters/http/integration-client.http';
import { OriginBreakers } from './adapters/http/origin-breakers';
import type { Resolver } from './adapters/http/ssrf-guard';
import { memoryRepositories } from './adapters/memory';
import { prometheusDeliveryObserver } from './adapters/metrics/delivery-observer.prom';
import { FlexibleDeliveryRateLimiter } from './adapters/rate-limit/flexible-delivery-rate-limiter';
import { TransportPlatform, TransportPostCommands } from './adapters/platform/platform.http';
import type { OutgoingDispatchConfig } from './config';
import { AttemptSlots } from './domain/delivery/attempt-slots';
import type { Clock, Deps, IntegrationClient, Platform, Repositories } from './domain/ports';
import { actionsRoutes } from './entry-points/http/actions.routes';
import { dialogsRoutes } from './entry-points/http/dialogs.routes';
import { commandExecuteRoutes } from './entry-points/http/command-execute.routes';
import { commandsRoutes } from './entry-points/http/commands.routes';
import { hooksRoutes } from './entry-points/http/hooks.routes';
import { signingKeyRoutes } from './entry-points/http/signing-key.routes';
import type { HttpContext } from './entry-points/http/http-context';
import { subscribeHookChanges } from './entry-points/kafka/hook-changes.consumer';
import { subscribePostsEvents } from './entry-points/kafka/post-created.consumer';
import { subscribeChannelsEvents } from './entry-points/kafka/hook-events.consumer';
import { DeliveryScheduler } from './entry-points/scheduler/delivery-scheduler';

export const SERVICE_NAME = 'outgoing-dispatch';

export interface OutgoingDispatchDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** How other services (users-bots, posts, ...) are reached. */
  readonly transport: ServiceTransport;
  /** Adapters to use instead of the in-process ones (e.g. `createOutgoingDispatchMongoRepositories`). */
  readonly repositories?: Partial<Repositories>;
  readonly clock?: Clock;
  /** DNS for the SSRF guard (tests stub it so that no real lookup happens). */
  readonly resolver?: Resolver;
  /** Replaces the HTTP integration client entirely (domain tests). */
  readonly integrationClient?: IntegrationClient;
  /** Replaces the internal-API client of users-bots and posts (domain tests). */
  readonly platform?: Platform;
}

export interface OutgoingDispatchApp {
  readonly handler: RequestListener;
  readonly liveConfig: MutableConfigView;
  /** The use-case dependencies (tests and benchmarks look inside). */
  readonly deps: Deps;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

/** Composition root: adapters → use-case deps → HTTP routes, consumers and the delivery scheduler. */
export function createOutgoingDispatchApp(config: Readonly<OutgoingDispatchConfig>, deps: OutgoingDispatchDeps): OutgoingDispatchApp {
  const setup = serviceSetup({ service: SERVICE_NAME, config, logger: deps.logger, bus: deps.bus, transport: deps.transport });
  const { keys, liveConfig, systemConfig } = setup;
  const stored: Repositories = { ...memoryRepositories(), ...(deps.repositories ?? {}) };
  const hooks = new CachingHookRepository(stored.hooks, new BusHookChanges(deps.bus, deps.logger));
  const repositories: Repositories = { ...stored, hooks };
  const breakers = new OriginBreakers(() => liveConfig.current().DeliverySettings);
  const httpClient = deps.integrationClient
    ? undefined
    : new HttpIntegrationClient({ allowList: () => liveConfig.current().ServiceSettings.AllowedUntrustedInternalConnections, breakers, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
  const instanceId = config.INSTANCE_ID ?? `${hostname()}-${randomBytes(4).toString('hex')}`;
  const scheduler = new DeliveryScheduler(() => domain, { intervalMs: config.DELIVERY_SCAN_INTERVAL_MS ?? 10_000, batchSize: config.DELIVERY_SCAN_BATCH ?? 32 });
  const domain: Deps = {
    ...repositories,
    clock: deps.clock ?? systemClock,
    liveConfig,
    platform: deps.platform ?? new TransportPlatform(deps.transport, keys),
    postCommands: new TransportPostCommands(deps.transport, keys),
    clientEvents: new BusClientEvents(deps.bus),
    attempts: new AttemptSlots(config.DELIVERY_CONCURRENCY ?? 64),
    client: deps.integrationClient ?? (httpClient as IntegrationClient),
    triggerIds: new EcdsaTriggerIds(keys),
    logger: deps.logger,
    instanceId,
    wakeAt: (time) => scheduler.wakeAt(time),
    observer: prometheusDeliveryObserver(repositories.deliveries),
    rateLimiter: new FlexibleDeliveryRateLimiter(),
  };
  let started = false;
  let subscriptions: Subscription[] = [];
  const health = setup.readiness(() => started);
  const http = setup.httpApp(health);
  http.app.use(identityMiddleware(() => keys));
  const context: HttpContext = { deps: domain, withBody: setup.withBody };
  http.app.use(hooksRoutes(context));
  http.app.use(signingKeyRoutes(context));
  http.app.use(actionsRoutes(context));
  http.app.use(dialogsRoutes(context));
  // execute before the CRUD routes: `/api/v4/commands/:command_id` would otherwise take `execute`.
  http.app.use(commandExecuteRoutes(context));
  http.app.use(commandsRoutes(context));
  const app = http.finalize();
  return {
    handler: app as unknown as RequestListener,
    liveConfig,
    deps: domain,
    start: async () => {
      await systemConfig.start();
      // Hook changes first: a post handled from now on sees every hook change announced from now on.
      subscriptions = [await subscribeHookChanges(deps.bus, (teamId) => hooks.evictTeam(teamId))];
      subscriptions.push(await subscribePostsEvents(deps.bus, domain));
      subscriptions.push(await subscribeChannelsEvents(deps.bus, domain));
      scheduler.start();
      started = true;
      deps.logger.info('outgoing-dispatch started', { instance: instanceId });
    },
    stop: async () => {
      started = false;
      await scheduler.stop();
      const running = subscriptions;
      subscriptions = [];
      await Promise.all(running.map((s) => s.stop()));
      // Attempts started by the last posts handled finish (and record their result) before the stores close.
      await domain.attempts.drain();
      await systemConfig.stop();
      breakers.shutdown();
      httpClient?.close();
    },
    health,
  };
}
