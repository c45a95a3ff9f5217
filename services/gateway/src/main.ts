import { MemoryEventBus } from '@switchyard/event-bus';
import { HttpTransport, listen } from '@switchyard/http-kit';
import { createLogger } from '@switchyard/logger';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';

/** The gateway as its own process (distributed runtime). The only reader of process.env. */
async function main(): Promise<void> {
  const config = loadGatewayConfig(process.env);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const transport = new HttpTransport(config.SERVICE_URLS, config.UPSTREAM_TIMEOUT_MS);
  // In-process bus until the Kafka adapter lands: config and revocations then come only from the
  // initial load and the token cache's TTL.
  const bus = new MemoryEventBus();
  const gateway = createGatewayApp(config, { logger, bus, transport, services: Object.keys(config.SERVICE_URLS) });
  const server = await listen(gateway.handler, config.PORT, config.HOST);
  await gateway.start();
  logger.info('gateway listening', { url: server.url, services: Object.keys(config.SERVICE_URLS) });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const close = async (): Promise<void> => {
      await server.close();
      await gateway.stop();
      await bus.close();
      await transport.close();
    };
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
