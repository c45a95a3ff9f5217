import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { identityMiddleware, type HealthReport, type ServiceTransport } from '@switchyard/http-kit';
import { serviceSetup } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { BusPostCommands } from './adapters/bus/bus-post-commands';
import { StoredPostsWatch } from './adapters/bus/stored-posts-watch';
import { CachingChannelDirectory, CachingUserDirectory } from './adapters/cache/caching-directories';
import { CachingHookRepository } from './adapters/cache/caching-hook-repository';
import { randomIds, systemClock } from '@switchyard/ids';
import { PostsChannelDirectory } from './adapters/http/posts-channel-directory';
import { UsersBotsDirectory } from './adapters/http/users-directory';
import { memoryRepositories } from './adapters/memory';
import { FlexibleHookRateLimiter } from './adapters/rate-limit/flexible-hook-rate-limiter';
import { JsonataTransformEngine } from './adapters/transform/jsonata-engine';
import type { IncomingHooksConfig } from './config';
import { Errors } from './domain/errors';
import { IDEMPOTENCY_WINDOW_MS } from './domain/ingest/idempotency';
import type { ChannelDirectory, Clock, Deps, HookFiles, HookRateLimiter, IdGenerator, PostCommands, Repositories, UserDirectory } from './domain/ports';
import { hooksRoutes } from './entry-points/http/hooks.routes';
import { hookPostsRoutes } from './entry-points/http/hook-posts.routes';
import { PostsHookPosts } from './adapters/http/posts-hook-posts';
import { PostsHookFiles } from './adapters/http/posts-hook-files';
import type { HttpContext } from './entry-points/http/http-context';
import { transformTestRoutes } from './entry-points/http/transform-test.routes';
import { WEBHOOK_PATH, webhookRoute } from './entry-points/http/webhook.routes';
import { DEFAULT_HOOK_SPOOL_DIR, sweepSpool } from './entry-points/http/hook-form';
import { cacheEvictionConsumer } from './entry-points/kafka/cache-eviction.consumer';
import { reactionAddedConsumer } from './entry-points/kafka/reaction-added.consumer';

export const SERVICE_NAME = 'incoming-hooks';
/** How long channel, membership and user lookups are reused (events evict sooner). */
const DIRECTORY_CACHE_MS = 2_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const STORED_ACK_TIMEOUT_MS = 10_000;
/** How long a hook read is reused (writes through this instance evict it at once; another replica's within this). */
const HOOK_CACHE_MS = 1_000;
/**
 * The reactions group reads every posts.events record for the few `reaction.added` of hook posts: it fetches
 * at most this often while posts flow (a notification DM may wait that long), not every few messages.
 */
const REACTIONS_FETCH_LINGER_MS = 500;
/** The stored-answers group while no hook waits: it reads posts.events at most this often (a waiting hook wakes it). */
const STORED_IDLE_FETCH_LINGER_MS = 1_000;

export interface IncomingHooksDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** How other services (users-bots, posts, ...) are reached. */
  readonly transport: ServiceTransport;
  /** Adapters to use instead of the in-process ones (e.g. `createIncomingHooksMongoRepositories`). */
  readonly repositories?: Partial<Repositories>;
  readonly clock?: Clock;
  /** An ioredis client: the per-hook rate limit is then shared by every replica. */
  readonly redis?: Redis;
  /** Test seams: replace the HTTP/bus-backed ports. */
  readonly channels?: ChannelDirectory;
  readonly users?: UserDirectory;
  readonly postCommands?: PostCommands;
  readonly hookFiles?: HookFiles;
  readonly rateLimiter?: HookRateLimiter;
  readonly ids?: IdGenerator;
  /** 0 disables the directory caches (tests that change channels behind the service's back). */
  readonly directoryCacheMs?: number;
  /** Where file parts of multipart hook requests wait while the hook is checked (default: in the OS temp dir). */
  readonly hookSpoolDir?: string;
}

export interface IncomingHooksApp {
  readonly handler: RequestListener;
  readonly liveConfig: MutableConfigView;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

/** Composition root: adapters → use-case deps → HTTP routes and consumers. */
export function createIncomingHooksApp(config: Readonly<IncomingHooksConfig>, deps: IncomingHooksDeps): IncomingHooksApp {
  const setup = serviceSetup({ service: SERVICE_NAME, config, logger: deps.logger, bus: deps.bus, transport: deps.transport });
  const { keys, liveConfig, systemConfig } = setup;
  const cacheMs = deps.directoryCacheMs ?? DIRECTORY_CACHE_MS;
  const channels = new CachingChannelDirectory(deps.channels ?? new PostsChannelDirectory(deps.transport, keys), cacheMs);
  const users = new CachingUserDirectory(deps.users ?? new UsersBotsDirectory(deps.transport, keys), cacheMs);
  const rateLimiter = deps.rateLimiter ?? new FlexibleHookRateLimiter(deps.redis);
  const storedPosts = new StoredPostsWatch(config.STORED_ACK_TIMEOUT_MS ?? STORED_ACK_TIMEOUT_MS, Errors.storeTimeout);
  const repositories: Repositories = { ...memoryRepositories(), ...(deps.repositories ?? {}) };
  const transforms = new JsonataTransformEngine();
  const domain: Deps = {
    ...repositories,
    hooks: cacheMs > 0 ? new CachingHookRepository(repositories.hooks, Math.min(cacheMs, HOOK_CACHE_MS)) : repositories.hooks,
    channels,
    users,
    postCommands: deps.postCommands ?? new BusPostCommands(deps.bus, storedPosts),
    hookFiles: deps.hookFiles ?? new PostsHookFiles(deps.transport, keys),
    rateLimiter,
    clock: deps.clock ?? systemClock,
    ids: deps.ids ?? randomIds,
    liveConfig,
    transforms,
  };
  let started = false;
  let subscriptions: Subscription[] = [];
  let purgeTimer: NodeJS.Timeout | undefined;

  const health = setup.readiness(() => started);
  const http = setup.httpApp(health);
  const context: HttpContext = {
    deps: domain,
    withBody: setup.withBody,
    logger: deps.logger,
    onHookChanged: () => undefined,
    spoolDir: deps.hookSpoolDir ?? DEFAULT_HOOK_SPOOL_DIR,
  };
  // `POST /hooks/{key}` needs no identity (the key is the credential): on the app itself, before the
  // identity middleware, so a hook goes through one router instead of two.
  http.app.post(WEBHOOK_PATH, webhookRoute(context));
  http.app.use(hookPostsRoutes(context, new PostsHookPosts(deps.transport, keys)));
  http.app.use(identityMiddleware(() => keys));
  http.app.use(hooksRoutes(context));
  http.app.use(transformTestRoutes(context));
  const app = http.finalize();

  const subscribeStored = async (instance: string): Promise<Subscription> => {
    const subscription = await deps.bus.subscribe({
      groupId: `${SERVICE_NAME}-stored-${instance}`,
      topics: [Topics.postsEvents],
      startAt: 'latest',
      // Other services' posts pass by all the time; while no hook waits they are fetched in bulk.
      fetchLingerMs: () => (storedPosts.waiting > 0 ? undefined : STORED_IDLE_FETCH_LINGER_MS),
      handler: storedPosts.handler,
    });
    storedPosts.onWaiting = () => subscription.wake?.();
    return subscription;
  };

  const purge = (): void => {
    domain.idempotency.purge(domain.clock.now() - IDEMPOTENCY_WINDOW_MS).catch((error: unknown) => deps.logger.warn('idempotency purge failed', { error }));
  };

  return {
    handler: app as unknown as RequestListener,
    liveConfig,
    start: async () => {
      if (started) return;
      await systemConfig.start();
      // File parts a crash left behind (a request in flight is younger than an hour).
      await sweepSpool(context.spoolDir ?? DEFAULT_HOOK_SPOOL_DIR);
      const instance = randomBytes(6).toString('hex');
      subscriptions = [
        // This instance's own group: the answers to its create commands (IncomingWebhookAckMode=stored).
        await subscribeStored(instance),
        await deps.bus.subscribe({ groupId: `${SERVICE_NAME}-reactions`, topics: [Topics.postsEvents], fetchLingerMs: REACTIONS_FETCH_LINGER_MS, handler: reactionAddedConsumer(domain, deps.logger) }),
        await deps.bus.subscribe({
          groupId: `${SERVICE_NAME}-cache-${instance}`,
          topics: [Topics.channelsEvents, Topics.usersEvents],
          startAt: 'latest',
          handler: cacheEvictionConsumer({ channel: (id, userId) => channels.evictChannel(id, userId), user: (id) => users.evictUser(id) }),
        }),
      ];
      purgeTimer = setInterval(purge, PURGE_EVERY_MS);
      purgeTimer.unref();
      started = true;
      deps.logger.info('incoming-hooks started');
    },
    stop: async () => {
      started = false;
      if (purgeTimer) clearInterval(purgeTimer);
      purgeTimer = undefined;
      const running = subscriptions;
      subscriptions = [];
      await Promise.all(running.map((s) => s.stop()));
      await systemConfig.stop();
      await rateLimiter.close();
      await transforms.close();
    },
    health,
  };
}
