import { randomBytes } from 'node:crypto';
import { Topics } from '@switchyard/contracts';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import type { Keys, ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { MutableConfigView } from '@switchyard/system-config';
import { HttpConfigSource } from './config-source.http';
import { configEventsConsumer } from './config-events.consumer';
import { LiveConfig } from './live-config';

export interface FollowSystemConfigOptions {
  readonly service: string;
  readonly view: MutableConfigView;
  readonly bus: EventBus;
  readonly transport: ServiceTransport;
  readonly internalSecret: Keys;
  readonly logger: Logger;
}

export interface SystemConfigFollower {
  /** True once a document was loaded from users-bots or received from config.events. */
  readonly loaded: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A service's live copy of the system config: loaded from users-bots' internal API at start (retried in
 * the background until it answers), then replaced by every `config.updated` on config.events. Each
 * instance has its own consumer group, because every replica must see every change.
 */
export function followSystemConfig(options: FollowSystemConfigOptions): SystemConfigFollower {
  const live = new LiveConfig({ view: options.view, source: new HttpConfigSource(options.transport, options.internalSecret, options.service), logger: options.logger });
  let subscription: Subscription | undefined;
  return {
    get loaded() {
      return live.loaded;
    },
    start: async () => {
      if (subscription) return;
      const instance = randomBytes(6).toString('hex');
      subscription = await options.bus.subscribe({
        groupId: `${options.service}-config-${instance}`,
        topics: [Topics.configEvents],
        startAt: 'latest',
        handler: configEventsConsumer((document) => live.apply(document), options.logger),
      });
      await live.start();
    },
    stop: async () => {
      live.stop();
      const running = subscription;
      subscription = undefined;
      await running?.stop();
    },
  };
}
