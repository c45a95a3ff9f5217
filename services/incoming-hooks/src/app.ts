import type { RequestListener } from 'node:http';
import type { EventBus } from '@switchyard/event-bus';
import { createHttpApp, identityMiddleware, type HealthReport, type ServiceTransport } from '@switchyard/http-kit';
import { followSystemConfig } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import type { IncomingHooksConfig } from './config';

export const SERVICE_NAME = 'incoming-hooks';

export interface IncomingHooksDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** How other services (users-bots, posts, ...) are reached. */
  readonly transport: ServiceTransport;
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
  const liveConfig = new MutableConfigView();
  const systemConfig = followSystemConfig({ service: SERVICE_NAME, view: liveConfig, bus: deps.bus, transport: deps.transport, internalSecret: config.INTERNAL_SECRET, logger: deps.logger });
  let started = false;
  const health = async (): Promise<HealthReport> => {
    const bus = await deps.bus.health().catch(() => false);
    const configLoaded = systemConfig.loaded;
    return { ok: started && bus && configLoaded, checks: { started, bus, config: configLoaded } };
  };
  const http = createHttpApp({
    service: SERVICE_NAME,
    logger: deps.logger,
    ready: health,
    developerMode: () => liveConfig.current().ServiceSettings.EnableDeveloper,
    trustRequestId: true,
  });
  http.app.use(identityMiddleware(() => config.INTERNAL_SECRET));
  const app = http.finalize();
  return {
    handler: app as unknown as RequestListener,
    liveConfig,
    start: async () => {
      await systemConfig.start();
      started = true;
      deps.logger.info('incoming-hooks started');
    },
    stop: async () => {
      started = false;
      await systemConfig.stop();
    },
    health,
  };
}
