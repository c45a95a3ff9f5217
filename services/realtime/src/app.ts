import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestListener } from 'node:http';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { envelope, Topics, type StatusChangedEvent } from '@switchyard/contracts';
import { createHttpApp, identityMiddleware, internalKeys, keySet, jsonBody, rawBody, readiness, type HealthReport, type ServiceTransport, type UpgradeHandler } from '@switchyard/http-kit';
import { systemClock } from '@switchyard/ids';
import { followSystemConfig } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import type { Redis } from 'ioredis';
import { BusTypingPublisher } from './adapters/bus/typing.bus';
import { HttpDirectory } from './adapters/http/directory.http';
import { MemoryPresence } from './adapters/memory/presence.memory';
import { exposeRealtimeGauges, prometheusRealtimeMetrics } from './adapters/metrics/realtime.metrics.prom';
import { MemoryStatusStore } from './adapters/memory/status-store.memory';
import { RedisPresence } from './adapters/redis/presence.redis';
import { RedisStatusStore } from './adapters/redis/status-store.redis';
import type { RealtimeConfig } from './config';
import type { ActionDeps } from './domain/actions/action-router';
import type { Connection } from './domain/connection';
import { Hub } from './domain/hub';
import { MembershipCache } from './domain/membership-cache';
import type { Clock, MembershipSource, PresenceStore, RealtimeMetrics, SessionSource, TypingPublisher, UserSource } from './domain/ports';
import { Statuses } from './domain/statuses/statuses';
import type { StatusStore } from './domain/statuses/status-store';
import { statusesRoutes } from './entry-points/http/statuses.routes';
import { internalStatusesRoutes } from './entry-points/http/internal-statuses.routes';
import { CONSUMED_TOPICS, eventsConsumer, type EventsConsumerDeps } from './entry-points/kafka/events.consumer';
import { EVENTS_PATH, eventsHandler } from './entry-points/http/events.routes';
import { statusPostsTap } from './entry-points/kafka/status-posts.consumer';
import { WebSocketEndpoint } from './entry-points/ws/websocket.endpoint';
import { CursorCodec } from './domain/stream/cursor';
import { EventCursors } from './domain/stream/event-cursors';
import { EventStream } from './domain/stream/event-stream';
import type { LogSource } from './domain/stream/history';

export const SERVICE_NAME = 'realtime';

/** `server_version` when the gateway named none (a socket reached without the gateway). */
const DEFAULT_SERVER_VERSION = '10.0.0.dev.0.false';

export interface RealtimeDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  readonly transport: ServiceTransport;
  /** Default: users-bots and posts through their internal APIs over `transport`. */
  readonly directory?: SessionSource & MembershipSource & UserSource;
  readonly typing?: TypingPublisher;
  readonly clock?: Clock;
  /** Default: the process's Prometheus registry. */
  readonly metrics?: RealtimeMetrics;
  /** Statuses shared by the replicas through Redis (docs/adr/0012); without it, this process's own (embedded). */
  readonly redis?: { readonly client: Redis; readonly keyPrefix: string };
  /** Where statuses are kept without Redis (the embedded runtime's store); default: this process's memory. */
  readonly statusStore?: StatusStore;
  /** Gate of messages not yet durable (the embedded runtime's journal): see EventsConsumerDeps.durable. */
  readonly durable?: EventsConsumerDeps['durable'];
}

export interface RealtimeApp {
  readonly handler: RequestListener;
  readonly upgrade: UpgradeHandler;
  readonly hub: Hub;
  readonly membership: MembershipCache;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

/** Composition root: directory → membership cache → hub → WebSocket endpoint and the events consumer. */
export function createRealtimeApp(config: Readonly<RealtimeConfig>, deps: RealtimeDeps): RealtimeApp {
  const keys = internalKeys(config);
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? prometheusRealtimeMetrics();
  const directory = deps.directory ?? new HttpDirectory(deps.transport, keys);
  // One consumer group and one presence set per replica: every replica sees every event and delivers to its own connections.
  const instance = randomBytes(6).toString('hex');
  const redisPresence = deps.redis
    ? new RedisPresence(deps.redis.client, {
        prefix: deps.redis.keyPrefix,
        replicaId: instance,
        ttlMs: config.PRESENCE_TTL_MS,
        clock,
        onError: (error) => deps.logger.warn('presence write failed (retried by the next refresh)', { error: error instanceof Error ? error.message : String(error) }),
      })
    : undefined;
  const presence: PresenceStore = redisPresence ?? new MemoryPresence();
  const liveConfig = new MutableConfigView();
  const systemConfig = followSystemConfig({ service: SERVICE_NAME, view: liveConfig, bus: deps.bus, transport: deps.transport, internalSecret: keys, logger: deps.logger });
  const statuses = new Statuses({
    store: deps.redis ? new RedisStatusStore(deps.redis.client, deps.redis.keyPrefix) : (deps.statusStore ?? new MemoryStatusStore()),
    presence,
    clock,
    settings: () => {
      const current = liveConfig.current();
      return { enabled: current.ServiceSettings.EnableUserStatuses, awayAfterMs: current.TeamSettings.UserStatusAwayTimeout * 1000 };
    },
    announce: async (userId, status) => {
      const event: StatusChangedEvent = envelope('status.changed', { user_id: userId, status });
      await deps.bus.publish(Topics.realtimeEvents, [{ key: userId, value: event }]);
    },
    onError: (error) => deps.logger.warn('status write failed', { error: error instanceof Error ? error.message : String(error) }),
  });
  // A user's first live socket here is activity: last activity now, and online unless they chose otherwise.
  const hubPresence: Pick<PresenceStore, 'set'> = {
    set: (userId, online) => {
      presence.set(userId, online);
      if (online) statuses.activity(userId);
    },
  };
  const membership = new MembershipCache({
    source: directory,
    clock,
    ttlMs: config.MEMBERSHIP_CACHE_TTL_MS,
    maxChannels: config.MEMBERSHIP_CACHE_MAX_CHANNELS,
    maxTeamEntries: config.MEMBERSHIP_CACHE_MAX_CHANNELS * 10,
  });
  // Event cursors need the bus's partition ends to know where the stream starts (both runtimes' buses have them).
  const stream = new EventStream(CONSUMED_TOPICS, { clock, maxRecords: config.EVENT_BUFFER_RECORDS, maxBytes: config.EVENT_BUFFER_BYTES, maxAgeMs: () => liveConfig.current().EventSettings.RetentionHours * 3_600_000 });
  // Cursors older than what this replica holds (within EventSettings.RetentionHours) are read from the log.
  const bus = deps.bus;
  const readLog = bus.readLog?.bind(bus);
  const log: LogSource | undefined = readLog ? (ranges, max, options) => readLog(ranges, max, options) : undefined;
  const cursors = deps.bus.endOffsets ? new EventCursors(new CursorCodec(config.EVENT_CURSOR_SECRET ? keySet(config.EVENT_CURSOR_SECRET) : keys), stream, { membership, users: directory, onlineAmong: (ids) => statuses.onlineAmong(ids) }, log) : undefined;
  // A bus (or a wrapper of one) without endOffsets turns cursors off: frames carry none, hello has no `resume`.
  if (!cursors) deps.logger.warn('event cursors are off: the event bus does not give partition ends (endOffsets)');
  const hub = new Hub({
    membership,
    hostname: hostname(),
    clock,
    limits: { sendQueue: config.WS_SEND_QUEUE, replayBuffer: config.WS_REPLAY_BUFFER },
    reconnectWindowMs: config.WS_RECONNECT_WINDOW_MS,
    defaultServerVersion: DEFAULT_SERVER_VERSION,
    metrics,
    presence: hubPresence,
    comesOnline: (userId) => statuses.comesOnline(userId),
    ...(cursors ? { cursors } : {}),
  });
  const lookUpUsername = (conn: Connection): void => {
    directory.usersByIds([conn.userId]).then(
      ([user]) => {
        if (user) for (const c of hub.connectionsOf(user.id)) c.username = user.username;
      },
      (error: unknown) => deps.logger.warn('username lookup failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  };
  const actions: ActionDeps = {
    hub,
    sessions: directory,
    membership,
    typing: deps.typing ?? new BusTypingPublisher(deps.bus),
    presence,
    clock,
    currentVersion: DEFAULT_SERVER_VERSION.split('.').slice(0, 3).join('.'),
    onAuthenticated: lookUpUsername,
    onActive: (userId) => statuses.activity(userId),
    readStatuses: async (userIds) => new Map((await statuses.read(userIds)).map((s) => [s.user_id, s.status])),
  };
  const endpoint = new WebSocketEndpoint({
    hub,
    actions,
    secret: keys,
    clock,
    logger: deps.logger,
    defaultServerVersion: DEFAULT_SERVER_VERSION,
    metrics,
    coalesceMs: config.WS_WRITE_COALESCE_MS,
    timers: {
      pingIntervalMs: config.WS_PING_INTERVAL_MS,
      readDeadlineMs: config.WS_READ_DEADLINE_MS,
      authTimeoutMs: config.WS_AUTH_TIMEOUT_MS,
      sweepIntervalMs: 1_000,
      maxFrameBytes: config.WS_MAX_FRAME_BYTES,
    },
  });

  exposeRealtimeGauges({ connections: () => hub.counts(), queuedFrames: () => hub.counts().queued, bufferedBytes: () => endpoint.bufferedBytes });

  let subscription: Subscription | undefined;
  let awayTimer: NodeJS.Timeout | undefined;
  // The away check (the reference's runs at each ping answer): this replica's connected users, at a quarter of the timeout (1–15 s).
  const checkAway = (): void => {
    const interval = Math.min(15_000, Math.max(1_000, statuses.settings().awayAfterMs / 4));
    awayTimer = setTimeout(() => {
      statuses
        .sweepAway(hub.onlineUsers())
        .catch((error: unknown) => deps.logger.warn('away check failed', { error: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          if (awayTimer) checkAway();
        });
    }, interval);
    awayTimer.unref();
  };
  const health = readiness({ started: () => subscription !== undefined, bus: () => deps.bus.health() });
  const http = createHttpApp({ service: SERVICE_NAME, logger: deps.logger, ready: health, trustRequestId: true });
  const identity = identityMiddleware(() => keys);
  http.app.use(identity);
  http.app.use(statusesRoutes(statuses, [rawBody(() => liveConfig.current().ServiceSettings.MaximumPayloadSizeBytes), jsonBody]));
  http.app.use(internalStatusesRoutes(statuses, keys, [rawBody(() => liveConfig.current().ServiceSettings.MaximumPayloadSizeBytes), jsonBody]));
  const events = cursors ? eventsHandler({ cursors, users: directory, membership, maxWaiting: config.EVENT_MAX_WAITING, clock }) : undefined;
  if (events) http.app.get(EVENTS_PATH, events);
  const handler = http.finalize();

  return {
    handler,
    upgrade: endpoint.upgrade,
    hub,
    membership,
    start: async () => {
      if (subscription) return;
      await systemConfig.start();
      await redisPresence?.start();
      // Before subscribing: the stream's start is at or before the group's (a resume never misses a record).
      if (cursors && deps.bus.endOffsets) stream.start(await deps.bus.endOffsets(CONSUMED_TOPICS));
      const events = eventsConsumer({ hub, membership, users: directory, logger: deps.logger, maxAttempts: 3, metrics, clock, onlineAmong: (ids) => statuses.onlineAmong(ids), ...(cursors ? { cursors } : {}), ...(deps.durable ? { durable: deps.durable } : {}) });
      // REST posts' statuses ride on this replica's own stream (the leading replica applies them): no second group on posts.events (ADR 0038).
      const statusPosts = statusPostsTap(statuses, () => presence.leads(), (error) => deps.logger.warn('status from a post not stored', { error: error instanceof Error ? error.message : String(error) }));
      subscription = await deps.bus.subscribe({
        groupId: `realtime-${instance}`,
        topics: [...CONSUMED_TOPICS],
        startAt: 'latest',
        maxAttempts: 3,
        handler: async (message) => {
          await events(message);
          // Once the message went through (a failed one comes again: its status is not applied twice).
          statusPosts(message);
        },
      });
      checkAway();
      endpoint.start();
    },
    stop: async () => {
      if (awayTimer) clearTimeout(awayTimer);
      awayTimer = undefined;
      await endpoint.stop();
      const running = subscription;
      subscription = undefined;
      await running?.stop();
      await systemConfig.stop();
      await presence.close().catch(() => undefined);
    },
    health,
  };
}
