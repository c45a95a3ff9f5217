import { inject, type Response } from 'light-my-request';
import { envelope, Services, Topics, type InternalChannel, type InternalUser, type PostEventPayload, type WirePost } from '@switchyard/contracts';
import { MemoryEventBus, type OutgoingMessage } from '@switchyard/event-bus';
import { InProcessTransport, signIdentity } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import type { SystemConfig } from '@switchyard/system-config';
import { createOutgoingDispatchApp, type OutgoingDispatchApp } from '../app';
import type { Resolver } from '../adapters/http/ssrf-guard';
import type { Clock, Repositories } from '../domain/ports';
import { FakeWorld } from './fake-platform';

export const SECRET = 'test-internal-secret-0123456789abcdef';

export interface Caller {
  readonly id: string;
  readonly roles: string;
  readonly isBot?: boolean;
}

/** A memory bus that also records what is published. */
export class RecordingBus extends MemoryEventBus {
  public readonly published: { topic: string; key: string; value: { type: string; id: string; payload: unknown } }[] = [];

  public constructor() {
    super({ retryDelayMs: 1 });
  }

  public override async publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    for (const m of messages) this.published.push({ topic, key: m.key, value: JSON.parse(JSON.stringify(m.value)) as { type: string; id: string; payload: unknown } });
    await super.publish(topic, messages);
    this.kickPumps();
  }

  /**
   * Works around a MemoryEventBus race (reported to the lead): a message published between a partition
   * pump's last empty read and its `finally` (which clears the "pumping" flag) starts no pump and waits
   * for the next message of that partition. Re-starting the pumps a tick later picks it up.
   */
  private kickPumps(): void {
    setImmediate(() => {
      const bus = this as unknown as { groups: Map<string, unknown>; startPumps(group: unknown): void };
      for (const group of bus.groups.values()) bus.startPumps(group);
    });
  }
}

export interface HarnessOptions {
  readonly resolver?: Resolver;
  readonly bus?: RecordingBus;
  readonly world?: FakeWorld;
  readonly repositories?: Repositories;
  readonly instanceId?: string;
  readonly scanIntervalMs?: number;
  readonly clock?: Clock;
  /** DELIVERY_CONCURRENCY (default: the service's). */
  readonly concurrency?: number;
}

export interface Harness {
  readonly app: OutgoingDispatchApp;
  readonly bus: RecordingBus;
  readonly world: FakeWorld;
  request(method: string, url: string, options?: { as?: Caller; body?: unknown; raw?: string }): Promise<Response>;
  setConfig(change: (config: SystemConfig) => void): void;
  /** Publishes `post.created` as posts would (source api unless said otherwise). */
  publishPost(post: WirePost, channel: InternalChannel, author: InternalUser, overrides?: Partial<PostEventPayload>): Promise<void>;
  stop(): Promise<void>;
}

export const silentLogger = createSilentLogger();

/** Tiny backoffs, loopback allowed, so that delivery tests run in milliseconds. */
export function fastDelivery(config: SystemConfig): void {
  config.ServiceSettings.AllowedUntrustedInternalConnections = '127.0.0.1 ::1';
  config.DeliverySettings.RetryBackoffSeconds = [0.01, 0.02, 0.03];
  config.DeliverySettings.JitterPercent = 0;
  // Tests fail receivers on purpose; only the breaker test wants the breaker to open.
  config.DeliverySettings.BreakerMinRequests = 1000;
}

/** A started outgoing-dispatch app over a fake users-bots and posts, identities signed as the gateway would. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const bus = options.bus ?? new RecordingBus();
  const world = options.world ?? new FakeWorld(SECRET);
  const transport = new InProcessTransport({ [Services.usersBots]: world.usersBots, [Services.posts]: world.postsService });
  const app = createOutgoingDispatchApp(
    { PORT: 0, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', LOG_FORMAT: 'json', DELIVERY_SCAN_INTERVAL_MS: options.scanIntervalMs ?? 50, ...(options.instanceId ? { INSTANCE_ID: options.instanceId } : {}), ...(options.concurrency ? { DELIVERY_CONCURRENCY: options.concurrency } : {}) },
    { logger: silentLogger, bus, transport, ...(options.resolver ? { resolver: options.resolver } : {}), ...(options.repositories ? { repositories: options.repositories } : {}), ...(options.clock ? { clock: options.clock } : {}) },
  );
  await app.start();
  app.liveConfig.replace(structuredClone(world.config));
  return {
    app,
    bus,
    world,
    request: async (method, url, opts = {}) => {
      const headers: Record<string, string> = opts.as
        ? signIdentity({ userId: opts.as.id, sessionId: 'sess', roles: opts.as.roles, isBot: opts.as.isBot ?? false, sessionType: 'session' }, SECRET, { method, target: url })
        : {};
      const payload = opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      return inject(app.handler, { method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
    },
    setConfig: (change) => {
      const next = structuredClone(app.liveConfig.current()) as SystemConfig;
      change(next);
      app.liveConfig.replace(next);
    },
    publishPost: async (post, channel, author, overrides = {}) => {
      const team = channel.team_id === '' ? null : { id: channel.team_id, name: channel.team_name };
      const payload: PostEventPayload = { post, channel, team, author: { id: author.id, username: author.username, is_bot: author.isBot }, source: 'api', from_webhook: false, is_system: false, ...overrides };
      await bus.publish(Topics.postsEvents, [{ key: channel.id, value: envelope('post.created', payload) }]);
    },
    stop: async () => {
      await app.stop();
      if (!options.bus) await bus.close();
    },
  };
}

/** Waits until `check` returns a value other than undefined/false (polling; fails after `timeoutMs`). */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
