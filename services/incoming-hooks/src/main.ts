import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport, listen } from '@switchyard/http-kit';
import { createLogger } from '@switchyard/logger';
import { createIncomingHooksApp, SERVICE_NAME } from './app';
import { loadIncomingHooksConfig } from './config';

/** The only reader of process.env: config → app → start → listen; SIGTERM/SIGINT stop in order. */
async function main(): Promise<void> {
  const config = loadIncomingHooksConfig(process.env);
  const logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  // Distributed adapters (Kafka, MongoDB, HTTP transport) are wired here by the runtime work (issue 3).
  const bus = new MemoryEventBus();
  const transport = new InProcessTransport();
  const app = createIncomingHooksApp(config, { logger, bus, transport });
  await app.start();
  const server = await listen(app.handler, config.PORT);
  logger.info('listening', { url: server.url });
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    void (async () => {
      await server.close();
      await app.stop();
      await bus.close();
    })().then(
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
