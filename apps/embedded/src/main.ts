import { startEmbedded } from './start-embedded';

/** `npm start`: every service in one process on PORT (default 8065). The only reader of process.env here. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8065);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid configuration:\n  - PORT: must be a port number, got ${process.env.PORT}\n`);
    process.exit(1);
  }
  const running = await startEmbedded({
    port,
    host: process.env.HOST ?? '0.0.0.0',
    logLevel: process.env.LOG_LEVEL ?? 'info',
    logFormat: process.env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json',
  });
  process.stdout.write(`Switchyard (embedded) listening on ${running.url}\n`);
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
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
