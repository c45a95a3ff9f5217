import { randomBytes } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STREAM_TOPICS, Services } from '@switchyard/contracts';
import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport, listen, requestPrototypes, type ListenLimits } from '@switchyard/http-kit';
import { createLogger } from '@switchyard/logger';
import { openStore, SqliteEventJournal, type SqliteStore } from '@switchyard/sqlite-kit';
import { filesDirOf } from './backup-archive';
import { backupRoute } from './backup-route';
import { cursorSecret } from './cursor-secret';
import { MetricsListener, type MetricsOverrides } from './metrics-listener';
import { answerWhenDurable } from './durable-responses';
import { createGatewayApp, loadGatewayConfig } from '@switchyard/gateway';
import { createUsersBotsApp, createUsersBotsSqliteRepositories, loadUsersBotsConfig } from '@switchyard/users-bots';
import { createPostsApp, createPostsSqliteRepositories, loadPostsConfig, ThreadPostSearch } from '@switchyard/posts';
import { createIncomingHooksApp, createIncomingHooksSqliteRepositories, loadIncomingHooksConfig } from '@switchyard/incoming-hooks';
import { createOutgoingDispatchApp, createOutgoingDispatchSqliteRepositories, loadOutgoingDispatchConfig } from '@switchyard/outgoing-dispatch';
import { createRealtimeApp, loadRealtimeConfig, SqliteStatusStore } from '@switchyard/realtime';

export interface EmbeddedOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  readonly logLevel?: string;
  readonly logFormat?: 'json' | 'pretty';
  /**
   * Where the durable store lives (created when missing; one process per directory). Omitted: a fresh
   * temporary directory, removed at stop (tests).
   */
  readonly dataDir?: string;
  /** Public listener limits (request and header timeouts, concurrent connections); http-kit defaults otherwise. */
  readonly limits?: ListenLimits;
  /**
   * The Prometheus listener follows the config document's MetricsSettings (Enable, ListenAddress, default
   * `:9064`), live; the keys set here (the env's METRICS_ENABLED, METRICS_PORT / METRICS_LISTEN_ADDRESS)
   * take precedence. Undefined: no listener at all (tests).
   */
  readonly metrics?: MetricsOverrides;
  /**
   * SiteURL stored when the config has none (custom slash commands need one): `npm start` passes its
   * listen address. Undefined: SiteURL stays empty until an admin sets it (tests).
   */
  readonly defaultSiteUrl?: string;
}

export interface RunningEmbedded {
  readonly url: string;
  readonly port: number;
  /** The data directory in use (absolute). */
  readonly dataDir: string;
  /** `http://…/metrics` while the metrics listener is open. */
  readonly metricsUrl: string | undefined;
  /** ServiceSettings.SiteURL now (empty when not set). */
  readonly siteUrl: string;
  stop(): Promise<void>;
}

interface StartedService {
  stop(): Promise<void>;
}

/**
 * Runs every service in this process: one in-process event bus, services reached without sockets,
 * SQLite repositories in one durable store under `dataDir`, and the gateway listening on `port`. The
 * same domain code as the distributed runtime; only the adapters differ. Throws StoreOpenError (one-line
 * message) when the data directory cannot be used.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<RunningEmbedded> {
  const ephemeral = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchyard-embedded-'));
  let store: SqliteStore;
  try {
    store = openStore({ dir: dataDir });
  } catch (error) {
    if (ephemeral) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  try {
    return await startOn(store, options, async () => {
      await store.close();
      if (ephemeral) rmSync(store.dir, { recursive: true, force: true });
    });
  } catch (error) {
    await store.close();
    if (ephemeral) rmSync(store.dir, { recursive: true, force: true });
    throw error;
  }
}

/** Heap per waiting poll the bound counts (KB): the measured ~17 KB and some room for arrival bursts. */
const POLL_HEAP_KB = 18;

/**
 * GET /api/v4/events long-polls waiting at once (more are answered 503 at once): what this process's heap
 * holds, so that many polls never exhaust it. A waiting poll takes about 17 KB of heap (measured with 1,000
 * waiting: both request and response pairs, the gateway's forward and realtime's waiter; docs/event-stream.md):
 * 18 KB each after 96 MB for everything else, at most 10,000 (`npm start`'s heap limit, 224 MB old space and
 * 16 MB semi-spaces: 10,000; ADR 0040's session 14 addendum). EVENT_MAX_WAITING in the environment overrides it.
 * Each poll is a connection too: HTTP_MAX_CONNECTIONS (default 10,000) bounds polls and every other client together.
 */
function maxWaitingPolls(): number {
  const configured = Number(process.env.EVENT_MAX_WAITING);
  if (process.env.EVENT_MAX_WAITING !== undefined && Number.isInteger(configured) && configured >= 0) return configured;
  const heapMb = getHeapStatistics().heap_size_limit / (1024 * 1024);
  return Math.max(100, Math.min(10_000, Math.floor(((heapMb - 96) * 1024) / POLL_HEAP_KB)));
}

/** EventSettings.RetentionHours' default, until the system config is read. */
const DEFAULT_EVENT_RETENTION_MS = 24 * 3_600_000;

async function startOn(store: SqliteStore, options: EmbeddedOptions, closeStore: () => Promise<void>): Promise<RunningEmbedded> {
  const internalSecret = randomBytes(32).toString('base64url');
  const env = { INTERNAL_SECRET: internalSecret, LOG_LEVEL: options.logLevel ?? 'info', LOG_FORMAT: options.logFormat ?? 'json' };
  const loggerFor = (service: string) => createLogger({ service, level: env.LOG_LEVEL, format: env.LOG_FORMAT });
  // The bus's log and consumer positions live in the store: publish resolves once durable, and after a
  // restart every group resumes where it stopped (the outbox of posts covers what was never published).
  // realtime's event topics are kept EventSettings.RetentionHours whatever the groups handled: event cursors
  // older than what realtime holds in memory resume from there (also after a restart).
  let retentionMs = (): number => DEFAULT_EVENT_RETENTION_MS;
  const journal = new SqliteEventJournal(store, (error) => loggerFor('embedded').error('event journal write failed', { error }), { topics: EVENT_STREAM_TOPICS, retentionMs: () => retentionMs() });
  const bus = new MemoryEventBus({ journal });
  const transport = new InProcessTransport();
  const started: StartedService[] = [];

  const usersBots = await createUsersBotsApp(loadUsersBotsConfig(env), {
    logger: loggerFor(Services.usersBots),
    bus,
    transport,
    repositories: createUsersBotsSqliteRepositories(store),
    ...(options.defaultSiteUrl ? { defaultSiteUrl: options.defaultSiteUrl } : {}),
  });
  transport.register(Services.usersBots, usersBots.handler);
  await usersBots.start();
  started.push(usersBots);
  retentionMs = () => usersBots.liveConfig.current().EventSettings.RetentionHours * 3_600_000;

  // Files on the local driver: a relative FileSettings.Directory (default ./data/) is under the data directory.
  // Post search runs its SQL on a thread of its own with a read connection (docs/adr/0041-search-reader-thread.md).
  const postSearch = new ThreadPostSearch(store);
  const posts = createPostsApp(loadPostsConfig({ ...env, DATA_DIR: store.dir }), { logger: loggerFor(Services.posts), bus, transport, repositories: { ...createPostsSqliteRepositories(store), search: postSearch } });
  transport.register(Services.posts, posts.handler);
  await posts.start();
  started.push(posts);

  const incomingHooks = createIncomingHooksApp(loadIncomingHooksConfig(env), {
    logger: loggerFor(Services.incomingHooks),
    bus,
    transport,
    repositories: createIncomingHooksSqliteRepositories(store),
  });
  transport.register(Services.incomingHooks, incomingHooks.handler);
  await incomingHooks.start();
  started.push(incomingHooks);

  const outgoingDispatch = createOutgoingDispatchApp(loadOutgoingDispatchConfig(env), {
    logger: loggerFor(Services.outgoingDispatch),
    bus,
    transport,
    repositories: createOutgoingDispatchSqliteRepositories(store),
  });
  transport.register(Services.outgoingDispatch, outgoingDispatch.handler);
  await outgoingDispatch.start();
  started.push(outgoingDispatch);

  // Statuses in the store: a manual away/dnd/offline survives a restart.
  const realtime = createRealtimeApp(loadRealtimeConfig({ ...env, EVENT_CURSOR_SECRET: cursorSecret(store.dir), EVENT_MAX_WAITING: String(maxWaitingPolls()) }), {
    logger: loggerFor(Services.realtime),
    bus,
    transport,
    statusStore: new SqliteStatusStore(store),
    // Frames and their cursors leave only once the message is on disk: a crash never reuses an offset a bot holds.
    durable: (message) => journal.whenDurable(message.topic, message.partition, Number(message.offset)),
  });
  transport.register(Services.realtime, realtime.handler);
  transport.registerUpgrade(Services.realtime, realtime.upgrade);
  await realtime.start();
  started.push(realtime);

  const gateway = await createGatewayApp(loadGatewayConfig(env), {
    logger: loggerFor(Services.gateway),
    bus,
    transport,
    services: [Services.usersBots, Services.posts, Services.incomingHooks, Services.outgoingDispatch, Services.realtime],
    // GET /api/v4/system/backup (admins): only this runtime has the store; decided on the canonical path.
    edgeRoutes: backupRoute({ store, transport, internalSecret, logger: loggerFor('embedded'), files: () => filesDirOf(gateway.config.current().FileSettings, store.dir) }),
  });
  await gateway.start();
  started.push(gateway);

  // Groups of the previous run that did not come back (per-instance cache and config followers) stop
  // holding messages back.
  bus.forgetDormantGroups();
  // Every service's metrics in one registry (label `service` tells them apart), never on the public port.
  // A listener that cannot start (another process has the port) is logged and the runtime runs without.
  let metrics: MetricsListener | undefined;
  let stopFollowing = (): void => undefined;
  if (options.metrics) {
    const listener = new MetricsListener({ host: options.host ?? '0.0.0.0', ...options.metrics }, loggerFor('embedded'));
    metrics = listener;
    stopFollowing = usersBots.liveConfig.onChange((config) => void listener.apply(config.MetricsSettings));
    await listener.apply(usersBots.liveConfig.current().MetricsSettings);
  }
  // Writes inside the runtime resolve at commit; an answer leaves only once they are on disk.
  const server = await listen(answerWhenDurable(gateway.handler, () => store.flush()), options.port, options.host ?? '0.0.0.0', {
    ...options.limits,
    prototypes: requestPrototypes(gateway.handler),
  });
  // The WebSocket API on the same port: the gateway checks the upgrade and hands it to realtime in-process.
  server.server.on('upgrade', gateway.upgrade);
  return {
    url: server.url,
    port: server.port,
    dataDir: store.dir,
    get metricsUrl() {
      return metrics?.url;
    },
    get siteUrl() {
      return usersBots.liveConfig.current().ServiceSettings.SiteURL;
    },
    stop: async () => {
      // WebSocket clients get a proper close (1001) before the port closes.
      await realtime.stop();
      await server.close();
      stopFollowing();
      await metrics?.close();
      for (const service of started.reverse()) if (service !== realtime) await service.stop();
      await bus.close();
      await transport.close();
      await journal.flush().catch(() => undefined);
      await postSearch.close();
      await closeStore();
    },
  };
}
