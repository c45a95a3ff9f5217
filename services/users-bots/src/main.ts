import { MemoryEventBus } from '@switchyard/event-bus';
import { listen } from '@switchyard/http-kit';
import { createLogger } from '@switchyard/logger';
import { createApp, SERVICE_NAME } from './app';
import { loadUsersBotsConfig } from './config';

/** The only reader of process.env: config → app → start → listen; SIGTERM/SIGINT stop in order. */
async function main(): Promise<void> {
  const config = loadUsersBotsConfig(process.env);
  const logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  // Memory adapters for now; the mongoose repositories and the Kafka bus plug in here (issue 2).
  const bus = new MemoryEventBus();
  const app = createApp(config, { logger, bus });
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
