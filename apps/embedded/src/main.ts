import { parseListenAddress } from '@switchyard/metrics';
import { isStoreOpenError } from '@switchyard/sqlite-kit';
import { dataDirFrom } from './data-dir';
import { startEmbedded } from './start-embedded';

/** The listen address as a URL users on this machine can open (a wildcard host becomes localhost). */
function defaultSiteUrl(host: string | undefined, port: number): string {
  const shown = host === undefined || host === '' || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** `npm start`: every service in one process on PORT (default 8065). The only reader of process.env here. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8065);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid configuration:\n  - PORT: must be a port number, got ${process.env.PORT}\n`);
    process.exit(1);
  }
  const dataDir = dataDirFrom(process.argv.slice(2), process.env);
  if ('error' in dataDir) fail(dataDir.error);
  process.stdout.write(`Switchyard (embedded) data directory: ${dataDir.dir}\n`);
  // The metrics listener follows the config document's MetricsSettings (Enable, ListenAddress `:9064` by
  // default: not the reference's :8067, which is the distributed posts service's port, nor the services'
  // metrics ports 9065-9070); each of these env keys that is set takes precedence over its key.
  const metrics: { enabled?: boolean; port?: number; host?: string } = {};
  const enabled = process.env.METRICS_ENABLED;
  if (enabled !== undefined && enabled !== '') {
    if (enabled !== 'true' && enabled !== 'false') {
      process.stderr.write(`Invalid configuration:\n  - METRICS_ENABLED: must be true or false, got ${enabled}\n`);
      process.exit(1);
    }
    metrics.enabled = enabled === 'true';
  }
  try {
    if (process.env.METRICS_PORT) Object.assign(metrics, { host: process.env.HOST ?? '0.0.0.0', port: parseListenAddress(process.env.METRICS_PORT).port });
    else if (process.env.METRICS_LISTEN_ADDRESS) Object.assign(metrics, parseListenAddress(process.env.METRICS_LISTEN_ADDRESS));
  } catch (error) {
    process.stderr.write(`Invalid configuration:\n  - METRICS_PORT / METRICS_LISTEN_ADDRESS: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const limit = (name: string): number | undefined => {
    const value = process.env[name];
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) {
      process.stderr.write(`Invalid configuration:\n  - ${name}: must be a positive integer\n`);
      process.exit(1);
    }
    return n;
  };
  const requestTimeoutMs = limit('HTTP_REQUEST_TIMEOUT_MS');
  const headersTimeoutMs = limit('HTTP_HEADERS_TIMEOUT_MS');
  const maxConnections = limit('HTTP_MAX_CONNECTIONS');
  const running = await startEmbedded({
    metrics,
    limits: {
      ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
      ...(headersTimeoutMs === undefined ? {} : { headersTimeoutMs }),
      ...(maxConnections === undefined ? {} : { maxConnections }),
    },
    port,
    host: process.env.HOST ?? '0.0.0.0',
    logLevel: process.env.LOG_LEVEL ?? 'info',
    logFormat: process.env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json',
    dataDir: dataDir.dir,
    ...(port === 0 ? {} : { defaultSiteUrl: defaultSiteUrl(process.env.HOST, port) }),
  });
  process.stdout.write(`Switchyard (embedded) listening on ${running.url}${running.metricsUrl ? `; metrics on ${running.metricsUrl}` : ''}\n`);
  process.stdout.write(
    running.siteUrl === ''
      ? 'SiteURL is not set: custom slash commands fail until an admin sets it (System Console, Site URL)\n'
      : `SiteURL: ${running.siteUrl} (the listen address when it was empty; the address users reach: System Console, Site URL)\n`,
  );
  const shutdown = (signal: string): void => {
    process.stdout.write(`${signal}: shutting down\n`);
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // A data directory that cannot be used is an operator's problem: one line, no stack.
  if (isStoreOpenError(error)) fail(error.message);
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
