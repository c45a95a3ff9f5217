import type { EventBus } from '@switchyard/event-bus';
import {
  createHttpApp,
  internalKeys,
  jsonBody,
  rawBody,
  readiness,
  type HealthReport,
  type HttpApp,
  type KeySet,
  type ReadinessCheck,
  type ServiceTransport,
} from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { followSystemConfig, type SystemConfigFollower } from './follow-system-config';

export interface ServiceSetupOptions {
  readonly service: string;
  readonly config: { readonly INTERNAL_SECRET: string; readonly INTERNAL_SECRET_SECONDARY?: string | undefined };
  readonly logger: Logger;
  readonly bus: EventBus;
  /**
   * How users-bots is reached: the service then follows the system config (loaded from users-bots, kept
   * current by config.events) and is ready only once it has one. Without it the service fills `liveConfig`
   * itself (users-bots, which stores the config).
   */
  readonly transport?: ServiceTransport;
}

/** What every service's composition root starts from; the service adds its own adapters, routes and consumers. */
export interface ServiceSetup {
  /** The internal secret(s): identity headers and service credentials. */
  readonly keys: KeySet;
  readonly liveConfig: MutableConfigView;
  /** rawBody (limit: MaximumPayloadSizeBytes, read per request) + jsonBody: what a route with a body puts first. */
  readonly withBody: readonly ReturnType<typeof rawBody>[];
  /**
   * `/health/ready`: `started`, the bus, the followed config (when there is one), then `extra`.
   * `started` is the service's own flag (true between the end of `start()` and `stop()`).
   */
  readiness(started: () => boolean, extra?: Readonly<Record<string, ReadinessCheck>>): () => Promise<HealthReport>;
  /** The express app: this service's name and logger, developer-mode errors from the live config, request ids trusted (behind the gateway). */
  httpApp(ready: () => Promise<HealthReport>): HttpApp;
}

export interface FollowingServiceSetup extends ServiceSetup {
  /** Start it in `start()` (before taking work), stop it in `stop()`. */
  readonly systemConfig: SystemConfigFollower;
}

/** The setup every service shares: keys, live config (followed when a transport is given), body parsers, readiness, the HTTP app. */
export function serviceSetup(options: ServiceSetupOptions & { readonly transport: ServiceTransport }): FollowingServiceSetup;
export function serviceSetup(options: ServiceSetupOptions): ServiceSetup;
export function serviceSetup(options: ServiceSetupOptions): ServiceSetup | FollowingServiceSetup {
  const keys = internalKeys(options.config);
  const liveConfig = new MutableConfigView();
  const systemConfig = options.transport
    ? followSystemConfig({ service: options.service, view: liveConfig, bus: options.bus, transport: options.transport, internalSecret: keys, logger: options.logger })
    : undefined;
  const setup: ServiceSetup = {
    keys,
    liveConfig,
    withBody: [rawBody(() => liveConfig.current().ServiceSettings.MaximumPayloadSizeBytes), jsonBody],
    readiness: (started, extra = {}) =>
      readiness({
        started,
        bus: () => options.bus.health(),
        ...(systemConfig ? { config: () => systemConfig.loaded } : {}),
        ...extra,
      }),
    httpApp: (ready) =>
      createHttpApp({
        service: options.service,
        logger: options.logger,
        ready,
        developerMode: () => liveConfig.current().ServiceSettings.EnableDeveloper,
        trustRequestId: true,
      }),
  };
  return systemConfig ? { ...setup, systemConfig } : setup;
}
