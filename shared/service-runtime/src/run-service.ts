import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { listen, requestPrototypes, type RunningServer, type UpgradeHandler } from '@switchyard/http-kit';
import { startMetricsServer, type MetricsServer } from '@switchyard/metrics';
import { shutdownTelemetry } from '@switchyard/telemetry';
import { buildInfra, type Infra, type OwnedInfra } from './infra';
import { loadAllConfig, type RuntimeConfig } from './runtime-config';

/** What a service's composition root returns (every service app has this shape). */
export interface RunnableApp {
  readonly handler: RequestListener;
  /** HTTP upgrades (WebSocket) arriving on the service's port, if it takes any. */
  readonly upgrade?: UpgradeHandler;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface RunServiceOptions<C, A extends RunnableApp> {
  /** Service name: logger `service`, Kafka clientId, default MONGO_DB. */
  readonly name: string;
  /** PORT when the env has none. */
  readonly defaultPort: number;
  /** The service's own config loader (its config.ts); its problems are listed with the runtime's. */
  readonly loadConfig: (env: NodeJS.ProcessEnv) => C;
  /** Builds the app from the config and the infrastructure (may await repositories, indexes...). */
  readonly build: (infra: Infra, config: C) => A | Promise<A>;
  /**
   * What this service uses; a URL in the env for something it does not use is ignored (a shared
   * ConfigMap/Secret may carry REDIS_URL for every service). Default: everything.
   */
  readonly uses?: { readonly mongo?: boolean; readonly redis?: boolean };
  /**
   * Redis down does not unready this service (reported only): the gateway, whose token cache falls back to
   * users-bots and whose rate limits fail open (ADR 0025). Default false.
   */
  readonly readyWithoutRedis?: boolean;
  /** Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Install SIGTERM/SIGINT handlers that shut down and exit. Default true (false in tests). */
  readonly handleSignals?: boolean;
  /** Called instead of process.exit (tests). */
  readonly exit?: (code: number) => void;
  /** Replace the infrastructure (tests). */
  readonly infra?: (name: string, runtime: RuntimeConfig) => Promise<OwnedInfra>;
}

export interface RunningService<A extends RunnableApp> {
  readonly app: A;
  readonly infra: Infra;
  readonly server: RunningServer;
  /** The Prometheus listener (METRICS_PORT), when METRICS_ENABLED. */
  readonly metrics?: MetricsServer;
  /** Stop intake, stop the app, close bus (consumers commit, producer flushes), transport, Redis, Mongo, flush traces. */
  shutdown(reason: string): Promise<void>;
}

/**
 * One service process: env → config (every problem at once) → infrastructure → app → listen on PORT
 * → app.start(). `/health/ready` also answers 503 while Mongo or Redis do not answer. SIGTERM/SIGINT
 * stop everything in order and exit 0 (1 when the shutdown failed or passed SHUTDOWN_TIMEOUT_MS).
 */
export async function runService<C, A extends RunnableApp>(options: RunServiceOptions<C, A>): Promise<RunningService<A>> {
  const env = options.env ?? process.env;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const loaded = loadAllConfig(env, options.name, options.defaultPort, options.loadConfig);
  const { service } = loaded;
  const runtime: RuntimeConfig = {
    ...loaded.runtime,
    ...(options.uses?.mongo === false ? { MONGO_URL: undefined } : {}),
    ...(options.uses?.redis === false ? { REDIS_URL: undefined } : {}),
  };
  const infra = await (options.infra ?? buildInfra)(options.name, runtime);
  const logger = infra.logger;
  let app: A;
  let server: RunningServer;
  let metrics: MetricsServer | undefined;
  try {
    app = await options.build(infra, service);
    if (runtime.METRICS_ENABLED) metrics = await startMetrics(runtime, logger);
    server = await listen(withInfraHealth(app.handler, infra, runtime.READINESS_GRACE_MS, options.readyWithoutRedis === true), runtime.PORT, runtime.HOST, {
      requestTimeoutMs: runtime.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: runtime.HTTP_HEADERS_TIMEOUT_MS,
      maxConnections: runtime.HTTP_MAX_CONNECTIONS,
      prototypes: requestPrototypes(app.handler),
    });
    if (app.upgrade) server.server.on('upgrade', app.upgrade);
  } catch (error) {
    await metrics?.close();
    await infra.close();
    throw error;
  }

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> =>
    (shuttingDown ??= (async () => {
      logger.info('shutting down', { reason });
      // A service taking upgrades (WebSocket) stops first: it closes its sockets properly (1001), which
      // closing the server would only cut.
      const httpThenApp: [string, () => Promise<unknown>][] = [
        ['http', () => server.close()],
        ['app', () => app.stop()],
      ];
      const steps: [string, () => Promise<unknown>][] = [
        ...(app.upgrade ? httpThenApp.reverse() : httpThenApp),
        ['infra', () => infra.close()],
        ['telemetry', () => shutdownTelemetry()],
        // Last: Prometheus may scrape the final counts while the rest drains.
        ['metrics', async () => metrics?.close()],
      ];
      let failed = false;
      for (const [step, run] of steps) {
        try {
          await run();
        } catch (error) {
          failed = true;
          logger.error('shutdown step failed', { step, error: error instanceof Error ? error.message : String(error) });
        }
      }
      if (failed) throw new Error('shutdown failed');
    })());

  if (options.handleSignals !== false) {
    const onSignal = (signal: NodeJS.Signals): void => {
      const deadline = setTimeout(() => {
        logger.error('shutdown timed out', { timeoutMs: runtime.SHUTDOWN_TIMEOUT_MS });
        exit(1);
      }, runtime.SHUTDOWN_TIMEOUT_MS);
      deadline.unref();
      shutdown(signal).then(
        () => exit(0),
        () => exit(1),
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }

  try {
    await app.start();
  } catch (error) {
    logger.error('start failed', { error: error instanceof Error ? error.message : String(error) });
    await shutdown('start failed').catch(() => undefined);
    throw error;
  }
  logger.info('listening', { url: server.url, metrics: metrics?.url, bus: runtime.KAFKA_BROKERS ? 'kafka' : 'memory', mongo: infra.mongo !== undefined, redis: infra.redis !== undefined });
  return { app, infra, server, ...(metrics ? { metrics } : {}), shutdown };
}

/**
 * The metrics listener on METRICS_PORT, or by default on PORT + 1000 (gateway 9065, users-bots 9066, ...:
 * one per service, as in the distributed runtime and the manifests). A default port that is taken (or
 * past 65535) falls back to an ephemeral one with a warning; an explicit METRICS_PORT that is taken fails.
 */
async function startMetrics(runtime: RuntimeConfig, logger: Infra['logger']): Promise<MetricsServer> {
  if (runtime.METRICS_PORT !== undefined) return startMetricsServer(runtime.METRICS_PORT, runtime.METRICS_HOST);
  const derived = runtime.PORT === 0 || runtime.PORT + 1000 > 65_535 ? 0 : runtime.PORT + 1000;
  try {
    return await startMetricsServer(derived, runtime.METRICS_HOST);
  } catch (error) {
    logger.warn('metrics port taken; using an ephemeral one (set METRICS_PORT)', { port: derived, error: error instanceof Error ? error.message : String(error) });
    return startMetricsServer(0, runtime.METRICS_HOST);
  }
}

/**
 * Probes that know the infrastructure. `/health/live` answers 503 while a Kafka consumer is dead for good
 * (kafkajs gave up on it: only a restart brings it back), so Kubernetes restarts the pod. `/health/ready`
 * answers 503 once Mongo or Redis has been failing for `graceMs` (a short blip of a dependency every pod
 * shares does not take every pod out of the endpoints at once); otherwise the app decides.
 */
function withInfraHealth(handler: RequestListener, infra: OwnedInfra, graceMs: number, readyWithoutRedis: boolean, now: () => number = Date.now): RequestListener {
  const gated = infra.mongo !== undefined || (infra.redis !== undefined && !readyWithoutRedis);
  let failingSince: number | undefined;
  const unhealthy = (res: ServerResponse, checks: Record<string, unknown>): void => {
    const body = JSON.stringify({ status: 'UNHEALTHY', service: infra.name, checks });
    res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/health/live') {
      const dead = infra.deadConsumers?.() ?? [];
      if (dead.length > 0) unhealthy(res, { consumers: false, dead_consumer_groups: dead });
      else handler(req, res);
      return;
    }
    if (req.method !== 'GET' || req.url !== '/health/ready' || !gated) {
      handler(req, res);
      return;
    }
    void infra.checks().then(
      (checks) => {
        if (Object.entries(checks).every(([name, ok]) => ok || (name === 'redis' && readyWithoutRedis))) {
          failingSince = undefined;
          handler(req, res);
          return;
        }
        failingSince ??= now();
        if (now() - failingSince < graceMs) handler(req, res);
        else unhealthy(res, checks);
      },
      () => handler(req, res),
    );
  };
}

/** For main.ts: runs the service and turns a failure to start (bad config included) into exit 1 with the reason. */
export function main<C, A extends RunnableApp>(options: RunServiceOptions<C, A>): void {
  runService(options).catch((error: unknown) => {
    process.stderr.write(`${options.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
